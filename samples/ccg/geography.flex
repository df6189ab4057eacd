# A small geography lexicon for the workbench's CCG tab (samples/README.md, docs/ccg.md).
# Written for this project; its constants follow GeoQuery's naming (state:t, texas:s, ...).
# geography.types and geography.lang beside it type-check its entries; geography.ccg holds
# questions with their logical forms. "colorado" and "mississippi" are ambiguous between a
# state and a river, and "what" has two templates, so some charts hold competing meanings.
lexeme 0 what :-
lexeme 0 which :-
lexeme 0 is :-
lexeme 0 are :-
lexeme 0 the :-
lexeme 0 of :-
lexeme 0.5 states :- state:t
lexeme 0.5 state :- state:t
lexeme 0.5 rivers :- river:t
lexeme 0.5 river :- river:t
lexeme 0.5 cities :- city:t
lexeme 0.3 major :- major:t
lexeme 0.5 border :- next_to:t
lexeme 0.5 run through :- loc:t
lexeme 0.5 in :- loc:t
lexeme 0.2 capital :- capital:c
lexeme 0.2 population :- population:i
lexeme 1 texas :- texas:s
lexeme 1 ohio :- ohio:s
lexeme 1 colorado :- colorado:s
lexeme 0.6 colorado :- colorado_river:r
lexeme 1 mississippi :- mississippi:s
lexeme 0.6 mississippi :- mississippi_river:r
lexeme 1 the mississippi :- mississippi_river:r
# Templates with the paper's initial weights (section 8): -0.1 per slash.
template 0 NP : #0
template -0.1 S|NP : (lambda $0 e (#0 $0))
template -0.2 (S|NP)/(S|NP) : (lambda $0 <e,t> (lambda $1 e (and (#0 $1) ($0 $1))))
template -0.2 (S|NP)/NP : (lambda $0 e (lambda $1 e (#0 $1 $0)))
template -0.3 ((S|NP)\(S|NP))/NP : (lambda $0 e (lambda $1 <e,t> (lambda $2 e (and ($1 $2) (#0 $2 $0)))))
template -0.1 S/(S|NP) : (lambda $0 <e,t> $0)
template -0.1 S/NP : (lambda $0 e $0)
template -0.2 (S|NP)/(S|NP) : (lambda $0 <e,t> $0)
template -0.1 NP/NP : (lambda $0 e (#0 $0))
template -0.1 NP/NP : (lambda $0 e $0)
template -0.2 (NP/NP)/(NP/NP) : (lambda $0 <e,e> $0)
