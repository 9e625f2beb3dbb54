#!/usr/bin/env python3
"""Every relative link and image of README.md and docs/*.md names a file that exists, and every
#anchor a heading of its file: the README points into docs/, and a moved section must not
leave a dead link behind."""
import re
import sys
from pathlib import Path

root = Path(sys.argv[1])
link = re.compile(r'!?\[[^\]]*\]\(([^)\s]+)\)')


def anchors(path):
    found = set()
    for line in path.read_text(encoding='utf-8').splitlines():
        m = re.match(r'^#+ (.*)', line)
        if m:
            text = re.sub(r'[^\w\- ]', '', m.group(1).strip().lower())
            found.add(text.replace(' ', '-'))
    return found


failures = []
for page in [root / 'README.md', *sorted((root / 'docs').glob('*.md'))]:
    text = re.sub(r'```.*?```', '', page.read_text(encoding='utf-8'), flags=re.S)
    for target in link.findall(text):
        if target.startswith(('http://', 'https://', 'mailto:')):
            continue
        file, _, anchor = target.partition('#')
        path = (page.parent / file).resolve() if file else page
        if not path.exists():
            failures.append(f'{page.relative_to(root)}: {target}: no such file')
        elif anchor and path.suffix == '.md' and anchor not in anchors(path):
            failures.append(f'{page.relative_to(root)}: {target}: no such heading')
for failure in failures:
    print(failure)
print(f'{len(failures)} dead link(s)')
sys.exit(1 if failures else 0)
