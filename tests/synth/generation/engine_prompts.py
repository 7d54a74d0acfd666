"""Ticket openings the real-model engine tests continue (CTranslate2, llama.cpp)."""

PROMPTS = [
    "Subject: Salary raise\n\nDear HR,\n\nI have been working here for",
    "Hi,\n\nI would like to ask about the accommodation in Berlin. Could you",
    "Hello,\n\nI need to change my shift on Friday because",
    "Dear HR team,\n\nI am writing to complain about",
]
