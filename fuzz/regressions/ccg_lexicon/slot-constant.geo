x :- NP : #0
y :- NP : (f:t #1 a:e)
