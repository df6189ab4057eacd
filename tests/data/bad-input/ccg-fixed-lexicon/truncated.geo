texas :- NP : texas:s
states :- N : (lambda $0 e (sta