lexeme 1e308 a :- b:e
lexeme -0 a b :- 
feature 1 
template 0 NP : #0
template 0 NP : (lambda $0 e #1)
feature 2 has  two  spaces
