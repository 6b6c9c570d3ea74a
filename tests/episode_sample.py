"""A short two-speaker exchange (Jon and Gina, in LoCoMo's style) that episode and attribution tests share."""

SAID = [
    ("Jon", "Hey Gina! Lost my job as a banker yesterday, so I'm starting my own dance studio."),
    ("Gina", "Sorry about your job, Jon! I lost mine at Door Dash this month."),
    ("Jon", "I got a temp job to help cover expenses while I look for investors."),
    ("Gina", "My online clothing store opened last week, it's been great!"),
    ("Jon", "Sounds great!"),
    ("assistant", "I will remember that Jon is looking for investors."),
]
