"""How the claim outcome model (`decisions/weighing.py`, `decisions/outcome_model.json`) is fitted.

`data` reads the evaluation's JSON reports into one row of the product's own features per claim,
`logistic` fits the multinomial logistic model by Newton's method, `thresholds` picks the
probability at which True or False is proposed and scores the proposals as the evaluation does,
and `fit` is the command that ties them together and writes the model with its card. See CARD.md.
"""
