lexeme 0 texas :- texas:s
lexeme x states :- state:t
template 0 NP : #0
template 0 (S|NP : (lambda $0 e (#0 $0)))
template 0 S|NP : (lambda $0 e (#0 $1))
