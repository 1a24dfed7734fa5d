# verdict: wrong_answer
# Mistake: checks whether each option letter occurs anywhere in the upper-cased reply, so "can"
# chooses C and "the answer is a" chooses A and more.


def mcq_answer(reply, options="ABCD"):
    upper = reply.upper()
    return [letter for letter in options if letter in upper]
