lexeme 0.5 texas :- texas:s
template 0.1 S|NP : (lambda $0 e (#0