"""Write the tracker's icons into tracker/web/static/: the favicon (16, 32 and 48 px) and the
PNGs a home screen asks for (180, 192 and 512 px), drawn with Pillow after icon.svg (a die
showing three, on the header's brown). Run: python scripts/make_icons.py
"""

from pathlib import Path

from PIL import Image, ImageDraw

STATIC = Path(__file__).resolve().parent.parent / "tracker" / "web" / "static"
BROWN, CREAM, RUST = (43, 33, 24), (244, 237, 228), (142, 59, 31)


def icon(size: int, *, margin: float = 0.0) -> Image.Image:
    """The icon at `size` px, drawn at four times the size and scaled down (smooth edges);
    `margin` (a share of the size) leaves a home screen's mask room to cut."""
    big = size * 4
    image = Image.new("RGBA", (big, big), BROWN + (255,) if margin else (0, 0, 0, 0))
    draw = ImageDraw.Draw(image)
    unit = big / 64  # icon.svg's grid: 64 x 64
    if not margin:
        draw.rounded_rectangle((0, 0, big - 1, big - 1), radius=12 * unit, fill=BROWN)
    inset = margin * big
    scale = (big - 2 * inset) / big

    def at(value: float) -> float:
        return inset + value * unit * scale

    draw.rounded_rectangle((at(14), at(14), at(50), at(50)), radius=7 * unit * scale, fill=CREAM)
    for x, y in ((23, 23), (32, 32), (41, 41)):
        r = 4.2 * unit * scale
        draw.ellipse((at(x) - r, at(y) - r, at(x) + r, at(y) + r), fill=RUST)
    return image.resize((size, size), Image.LANCZOS)


def main() -> None:
    for size in (180, 192, 512):
        icon(size).save(STATIC / f"icon-{size}.png", optimize=True)
    icon(512, margin=0.1).save(STATIC / "icon-maskable-512.png", optimize=True)
    icon(48).save(STATIC / "favicon.ico", sizes=[(16, 16), (32, 32), (48, 48)])


if __name__ == "__main__":
    main()
