"""Varied test strings for tokenizer parity: many scripts, digits, emoji, URLs, whitespace.

Deterministic (seeded) so a failure names a reproducible string.
"""
from __future__ import annotations

import random

BANGLA = ["বাজারঘরের", "অর্ডার", "আগামীকাল", "বিকেলে", "রাজশাহী", "পৌঁছাবে।", "প্যাকেট", "ক্ষমা", "কি", "য়", "ৎ", "শাড়ি", "খুশি", "৫৬৭", "ব্যাগ"]
HINDI = ["नमस्ते", "हिन्दी", "क्षत्रिय", "पुस्तकालय", "भारत", "में", "है।", "१२३", "ज़िंदगी", "श्री"]
PERSIAN = ["سلام", "کتاب‌خانه", "فارسی", "می‌خواهم", "۱۴۰۳", "ایران", "خوب", "است.", "؟", "بچه‌ها"]
UZBEK = ["Oʻzbekiston", "gʻalaba", "maʼno", "taʼlim", "oʻqituvchi", "Toshkent", "sheʼr", "Gʻafur", "qoʻshiq", "ʻ", "ʼ"]
ENGLISH = ["Your", "order", "will", "reach", "Rajshahi", "tomorrow", "don't", "I'LL", "we've", "HELLO", "the", "naïve", "café"]
DIGITS = ["0", "7", "42", "1234", "3.14159", "1,000,000", "2026-11-30", "0x1F", "٣٤٥"]
EMOJI = ["😀", "👍🏽", "👨‍👩‍👧", "🇧🇩", "🫠", "❤️", "✅", "🏳️‍🌈", "🙏🏾"]
URLS = ["https://example.com/path?q=1&r=২", "http://নাম.বাংলা/", "www.test.org", "user@mail.com", "C:\\Users\\me", "/usr/bin/env"]
SPACE = [" ", "  ", "   ", "\t", "\n", "\n\n", "\r\n", " \n ", "\u00a0", "\u200b", "\u200d", "\u3000", "    \n"]
PUNCT = [".", ",", "!", "?", "...", "—", "«»", "(", ")", "<|", "|>", "[SEP]", "<|endoftext|>", "'", "\"", "``", "#", "$"]
POOLS = [BANGLA, HINDI, PERSIAN, UZBEK, ENGLISH, DIGITS, EMOJI, URLS, PUNCT]


def _random_chars(rng: random.Random) -> str:
    ranges = [(0x20, 0x7E), (0x0980, 0x09FF), (0x0900, 0x097F), (0x0600, 0x06FF), (0x1F300, 0x1FAFF), (0xA0, 0x24F), (0x4E00, 0x4E80)]
    lo, hi = rng.choice(ranges)
    return "".join(chr(rng.randint(lo, hi)) for _ in range(rng.randint(1, 6)))


def generate(n: int, seed: int = 2026) -> list[str]:
    """``n`` strings: word salads across pools, joined by varied whitespace."""
    rng = random.Random(seed)
    out = ["", " ", "\n", "a", "রাজশাহী", "  leading and trailing  ", "x\r\n\r\n  \t y", "Oʻzbekiston ʼ"]
    while len(out) < n:
        parts = []
        focus = rng.choice(POOLS)
        for _ in range(rng.randint(1, 12)):
            r = rng.random()
            if r < 0.5:
                parts.append(rng.choice(focus))
            elif r < 0.85:
                parts.append(rng.choice(rng.choice(POOLS)))
            else:
                parts.append(_random_chars(rng))
            parts.append(rng.choice(SPACE) if rng.random() < 0.8 else "")
        out.append("".join(parts))
    return out[:n]
