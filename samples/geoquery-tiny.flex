# A tiny factored CCG lexicon for GeoQuery questions (docs/ccg.md walks through it).
# Lexemes pair words with constants; templates say how the constants make a meaning.
lexeme 0 what :-
lexeme 0 which :-
lexeme 0.5 states :- state:t
lexeme 0.5 state :- state:t
lexeme 0.5 rivers :- river:t
lexeme 0.5 cities :- city:t
lexeme 0.5 border :- next_to:t
lexeme 0.5 run through :- loc:t
lexeme 0.5 in :- loc:t
lexeme 1 texas :- texas:s
lexeme 1 the mississippi :- mississippi_river:r
lexeme 1 mississippi :- mississippi:s
lexeme 0.2 capital :- capital:c
lexeme 0 is :-
lexeme 0 the :-
lexeme 0 of :-
# Initial template weights as in the paper (section 8): -0.1 per slash, -2 with constants.
template 0 NP : #0
template -0.1 S|NP : (lambda $0 e (#0 $0))
template -0.2 (S|NP)/(S|NP) : (lambda $0 <e,t> (lambda $1 e (and (#0 $1) ($0 $1))))
template -0.2 (S|NP)/NP : (lambda $0 e (lambda $1 e (#0 $1 $0)))
template -0.2 (S|NP)\NP : (lambda $0 e (lambda $1 e (#0 $0 $1)))
template -0.1 S/(S|NP) : (lambda $0 <e,t> $0)
template -0.1 NP/NP : (lambda $0 e (#0 $0))
template -0.1 S/NP : (lambda $0 e $0)
template -0.2 (NP/NP)/(NP/NP) : (lambda $0 <e,e> $0)
template -0.1 NP/NP : (lambda $0 e $0)
feature 0.5 pair:mississippi :- mississippi:s || NP : #0
