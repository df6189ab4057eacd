states :- N : (lambda $0 e (state:t $1))
