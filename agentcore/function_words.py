"""English function words: never a candidate for a value or an item. A leaf module, so that the readers of units
(`agentcore.unit_names`) and of the task's words (`agentcore.grounding`) share it without importing each other."""

# Function words are never candidates for a value: a short general list, not the benchmark's vocabulary.
_FUNCTION_TEXT = (
    "a about after all also an and any are as at be been before being but by can could did do does each "
    "for from had has have how i if in into is it its itself me more most much my no not of off on once "
    "only or other our out over per same she should so some such than that the their them then there "
    "these they this those through to too under until up very was we were what when where which while who "
    "whom why will with would you your look find get give tell show calculate compute use many cost costs "
    "weigh weighs pay take come comes among between across during without within against times plus minus over "
    "together total one two three four five six seven eight nine ten twelve twenty hundred thousand"  # quantities
)
FUNCTION_WORDS = frozenset(_FUNCTION_TEXT.split())
