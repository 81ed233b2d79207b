"""The rules layer (layer 1, above ``cards``): ``options`` (what each option means), then
``ruleset`` (:class:`~.ruleset.RuleSet` and the presets), then ``dealers_joker`` (X2: a
round's rules once the dealer has nominated), each importing only the ones before it."""
