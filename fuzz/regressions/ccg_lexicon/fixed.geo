texas :- NP : texas:s
the united states :- NP : usa:co
// comment
bad line
x :- S|NP : (lambda $0 e (state:t $0))
