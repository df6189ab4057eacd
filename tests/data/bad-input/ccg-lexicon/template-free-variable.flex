template 0.1 S|NP : (lambda $0 e (#0 $1))
