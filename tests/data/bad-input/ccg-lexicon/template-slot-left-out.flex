template 0.1 S|NP : (lambda $0 e (#1 $0))
