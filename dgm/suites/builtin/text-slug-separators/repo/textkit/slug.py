import re
import unicodedata


def slugify(title: str, separator: str = "-") -> str:
    """Turn a post title into a URL slug: lowercase ASCII words joined by `separator`."""
    text = unicodedata.normalize("NFKD", title).encode("ascii", "ignore").decode("ascii")
    text = re.sub(r"[^\w\s-]", "", text).strip().lower()
    return re.sub(r"\s", separator, text)
