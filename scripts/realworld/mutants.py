"""Mutation operators for scripts/mutate.py: one device bug a mutant, by a textual edit of one line.

Each operator looks at one line of a file (with the file around it for context) and returns
the mutated line, or None. A mutant keeps the file's line count (a deleted statement leaves an
empty line), so the original's findings keep their line numbers.

  drop-input-to        x = batch.data.to(device);  ->  x = batch.data;   (x later fed to a model
                       or loss), or model->forward(x.to(device))  ->  model->forward(x)
  drop-factory-device  torch::zeros({n}, torch::TensorOptions().device(d))  ->  without .device(d);
                       torch::ones({n}, device)  ->  torch::ones({n})
  discard-to           x = x.to(d);  ->  x.to(d);
  drop-load-device     torch::load(m, path, device)  ->  torch::load(m, path);
                       torch::jit::load(path, device)  ->  torch::jit::load(path)
  buffer-to-member     m = register_buffer("m", t);  ->  m = t;   (also in an initialiser list)
  drop-model-to        model->to(device);  ->  (empty line), while the file still moves inputs
"""
import re

OPERATORS = ("drop-input-to", "drop-factory-device", "discard-to", "drop-load-device",
             "buffer-to-member", "drop-model-to")

FACTORIES = ("zeros", "ones", "randn", "rand", "randint", "randperm", "empty", "full",
             "arange", "linspace", "eye", "tensor")
MODULE_NAME = re.compile(r"(model|net|module|policy|gen|dis|encoder|decoder|actor|critic|"
                         r"backbone|detector|vgg|unet|nerf|base)", re.I)
# Where a moved value is fed to a model or a loss.
CONSUMER = re.compile(r"(forward|model|net|loss|criterion|policy|gen|dis|enc|dec|->)", re.I)
IDENT = r"[A-Za-z_]\w*"
LVALUE = r"(?:this->)?[A-Za-z_][\w.\[\]]*(?:->[A-Za-z_][\w.\[\]]*)*"


def is_device_arg(text):
    """A device as code names one (device, dev, device_, torch::kCUDA, x.device()), not the CPU."""
    return bool(re.search(r"dev|cuda|gpu", text, re.I)) and not re.search(r"cpu", text, re.I)


def scan(text, start=0):
    """(index, character, bracket depth after it) of each character of text from start that
    is outside string and character literals."""
    depth, quote = 0, None
    for i in range(start, len(text)):
        c = text[i]
        if quote:
            if c == quote and text[i - 1] != "\\":
                quote = None
            continue
        if c in "\"'":
            quote = c
            continue
        if c in "([{":
            depth += 1
        elif c in ")]}":
            depth -= 1
        yield i, c, depth


def closing(line, open_at):
    """Index of the ')' that closes the '(' at open_at, or None (the call goes on below)."""
    for i, c, depth in scan(line, open_at):
        if c in ")]}" and depth == 0:
            return i if c == ")" else None
    return None


def split_args(text):
    """The top-level arguments of a call's argument text, with their spans."""
    args, start = [], 0
    for i, c, depth in scan(text):
        if c == "," and depth == 0:
            args.append((start, i))
            start = i + 1
    args.append((start, len(text)))
    return [(s, e, text[s:e]) for s, e in args]


def code(line):
    """The line without a trailing // comment (not inside a string)."""
    m = re.match(r'^((?:[^"/]|"(?:[^"\\]|\\.)*"|/(?!/))*)', line)
    return m.group(1) if m else line


def function_rest(lines, index, limit=80):
    """The lines after lines[index] up to the end of its function (a '}' in column 0)."""
    rest = []
    for line in lines[index + 1:index + 1 + limit]:
        if line.startswith("}"):
            break
        rest.append(line)
    return rest


def to_calls(line):
    """(start of '.to', index of '(', index of ')', argument text) of each '.to(' on a device."""
    for m in re.finditer(r"\.to\(", line):
        close = closing(line, m.end() - 1)
        if close is None:
            continue
        args = split_args(line[m.end():close])
        if is_device_arg(args[0][2]):
            yield m.start(), m.end() - 1, close, line[m.end():close]


def receiver(line, dot):
    """The expression before '.' at dot: identifiers, '.', '->', '::', calls and subscripts."""
    i = dot
    while i > 0:
        c = line[i - 1]
        if c.isalnum() or c in "_.:":
            i -= 1
        elif c == ">" and line[i - 2:i] == "->":
            i -= 2
        elif c in ")]":
            depth, j = 0, i - 1
            while j >= 0:
                depth += 1 if line[j] in ")]" else -1 if line[j] in "([" else 0
                if depth == 0:
                    break
                j -= 1
            if j < 0:
                break
            i = j
        else:
            break
    return line[i:dot]


def drop_input_to(lines, index):
    line = code(lines[index])
    statement = re.match(rf"^\s*{LVALUE}(\.|->)to\(.*\);\s*$", line)
    if statement:
        return None  # a move on its own: discard-to or a module's move
    assigned = re.match(rf"^\s*(?:[\w:<>&*]+\s+)*&?({IDENT})\s*=[^=]", line)
    for dot, _, close, _ in to_calls(line):
        recv = receiver(line, dot)
        if not recv or MODULE_NAME.fullmatch(recv.split("->")[-1].split(".")[-1]):
            continue
        mutated = lines[index][:dot] + lines[index][close + 1:]
        inside_call = line[:dot].count("(") > line[:dot].count(")")
        if inside_call and CONSUMER.search(line):
            return mutated
        if assigned and re.match(r"\s*;", line[close + 1:]):
            name = assigned.group(1)
            for later in function_rest(lines, index):
                if (re.search(rf"\(.*\b{name}\b", later) and CONSUMER.search(later)
                        and not re.search(rf"\b{name}\s*=[^=]", later)):
                    return mutated
    return None


def drop_factory_device(lines, index):
    line = lines[index]
    text = code(line)
    for m in re.finditer(rf"\btorch::({'|'.join(FACTORIES)})\(", text):
        open_at = m.end() - 1
        close = closing(text, open_at)
        if close is None:
            continue
        inner = text[open_at + 1:close]
        args = split_args(inner)
        for n, (s, e, arg) in enumerate(args):
            a = arg.strip()
            new = None
            if n > 0 and re.fullmatch(r"[\w:.]+(\(\))?", a) and is_device_arg(a):
                s = args[n - 1][1]       # the argument with its comma
                new = ""
            elif re.fullmatch(r"torch::device\([^()]*\)", a) and is_device_arg(a):
                s, new = args[n - 1][1], ""
            elif re.match(r"torch::device\(([^()]*)\)\.", a) and is_device_arg(a[:a.index(")")]):
                new = " " * (len(arg) - len(arg.lstrip())) + re.sub(
                    r"^torch::device\([^()]*\)\.", "torch::TensorOptions().", a)
            else:
                d = re.search(r"\.device\(([^()]*(?:\([^()]*\))?[^()]*)\)", arg)
                if d and is_device_arg(d.group(1)):
                    new = arg[:d.start()] + arg[d.end():]
            if new is not None:
                start = open_at + 1
                return line[:start] + inner[:s] + new + inner[e:] + line[close:]
    return None


def discard_to(lines, index):
    line = lines[index]
    m = re.match(rf"^(\s*)({LVALUE})\s*=\s*(.*);(\s*(?://.*)?)$", line)
    if not m or not m.group(3).startswith(m.group(2) + "."):
        return None
    rhs = m.group(3)
    last = rhs.rfind(".to(")
    if (last > 0 and closing(rhs, last + 3) == len(rhs) - 1
            and is_device_arg(split_args(rhs[last + 4:-1])[0][2])):
        return f"{m.group(1)}{rhs};{m.group(4)}"
    return None


def drop_load_device(lines, index):
    line = lines[index]
    text = code(line)
    for m in re.finditer(r"\btorch::(jit::)?load\(", text):
        close = closing(text, m.end() - 1)
        if close is None:
            continue
        args = split_args(text[m.end():close])
        keep = 1 if m.group(1) else 2
        if len(args) > keep and is_device_arg(args[keep][2]):
            return line[:m.end() + args[keep - 1][1]] + line[close:]
    return None


def buffer_to_member(lines, index):
    line = lines[index]
    for m in re.finditer(r"\b(?:this->)?register_buffer\(", line):
        close = closing(line, m.end() - 1)
        if close is None:
            continue
        args = split_args(line[m.end():close])
        if len(args) != 2 or not args[0][2].strip().startswith('"'):
            continue
        before = line[:m.start()]
        # The registered tensor must land in a member: 'member = register_buffer(...)' or an
        # initialiser 'member(register_buffer(...))'.
        if re.search(rf"{LVALUE}\s*=\s*$", before) or re.search(rf"\b{IDENT}\($", before):
            return before + args[1][2].strip() + line[close + 1:]
    return None


def drop_model_to(lines, index, inputs_moved_elsewhere=False):
    line = lines[index]
    m = re.match(rf"^(\s*)(\(\*{IDENT}\)|{LVALUE})(->|\.)to\((.*)\);\s*(//.*)?$", line)
    if not m or not is_device_arg(split_args(m.group(4))[0][2]):
        return None
    name = m.group(2).split("->")[-1].split(".")[-1]
    if name == "this" or (m.group(3) == "." and not MODULE_NAME.search(name)):
        return None
    # The inputs are still moved: a device move of a value fed to a model, here or in
    # another file of the same program.
    if inputs_moved_elsewhere or any(
            drop_input_to(lines, n) is not None for n in range(len(lines)) if n != index):
        return ""
    return None


MUTATE = {
    "drop-input-to": drop_input_to,
    "drop-factory-device": drop_factory_device,
    "discard-to": discard_to,
    "drop-load-device": drop_load_device,
    "buffer-to-member": buffer_to_member,
    "drop-model-to": drop_model_to,
}


def moves_inputs(text):
    """Does the file move a value that it feeds to a model or a loss?"""
    lines = text.split("\n")
    return any(drop_input_to(lines, n) is not None for n in range(len(lines)))


def sites(text, inputs_moved_elsewhere=False):
    """Every (operator, 1-based line, original line, mutated line) of a file's text."""
    lines = text.split("\n")
    found = []
    for index, line in enumerate(lines):
        stripped = line.lstrip()
        if stripped.startswith(("//", "*", "/*", "#")):
            continue
        for op in OPERATORS:
            if op == "drop-model-to":
                new = drop_model_to(lines, index, inputs_moved_elsewhere)
            else:
                new = MUTATE[op](lines, index)
            if new is not None and new != line:
                found.append((op, index + 1, line, new))
    return found


def apply(text, line_no, new_line):
    lines = text.split("\n")
    lines[line_no - 1] = new_line
    return "\n".join(lines)
