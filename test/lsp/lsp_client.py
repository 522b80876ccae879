"""A small LSP client over stdio, for the protocol tests and the benchmark.

It starts `torch-tidy --lsp`, writes framed JSON-RPC messages, and reads the
server's messages on a thread of its own: responses are matched to their
requests, notifications and the server's own requests are queued (the
server's requests are answered with a null result, as an editor would).
"""
import json
import queue
import subprocess
import threading
import time


class ServerClosed(Exception):
    pass


def file_uri(path):
    from urllib.parse import quote
    return 'file://' + quote(path)


class LspClient:
    def __init__(self, command, cwd=None, stderr_path=None):
        self.stderr = open(stderr_path, 'wb') if stderr_path else subprocess.DEVNULL
        self.proc = subprocess.Popen(command, cwd=cwd, stdin=subprocess.PIPE,
                                     stdout=subprocess.PIPE, stderr=self.stderr)
        self.next_id = 0
        self.responses = {}
        self.cond = threading.Condition()
        self.notifications = []  # (arrival time, message), in order
        self.server_requests = []
        self.closed = False
        self.reader = threading.Thread(target=self._read, daemon=True)
        self.reader.start()

    # -- writing ---------------------------------------------------------
    def send_raw(self, body):
        """Writes one framed message whose body is the bytes given."""
        if isinstance(body, str):
            body = body.encode('utf-8')
        self.proc.stdin.write(b'Content-Length: %d\r\n\r\n' % len(body) + body)
        self.proc.stdin.flush()

    def send(self, message):
        self.send_raw(json.dumps(message))

    def request_async(self, method, params):
        self.next_id += 1
        self.send({'jsonrpc': '2.0', 'id': self.next_id, 'method': method,
                   'params': params})
        return self.next_id

    def request(self, method, params, timeout=120):
        return self.response(self.request_async(method, params), timeout)

    def notify(self, method, params):
        self.send({'jsonrpc': '2.0', 'method': method, 'params': params})

    # -- reading ---------------------------------------------------------
    def _read(self):
        out = self.proc.stdout
        try:
            while True:
                length = None
                while True:
                    line = out.readline()
                    if not line:
                        raise ServerClosed()
                    line = line.strip()
                    if not line:
                        break
                    name, _, value = line.partition(b':')
                    if name.strip().lower() == b'content-length':
                        length = int(value)
                body = out.read(length)
                if len(body) < length:
                    raise ServerClosed()
                self._dispatch(json.loads(body))
        except (ServerClosed, ValueError):
            pass
        with self.cond:
            self.closed = True
            self.cond.notify_all()

    def _dispatch(self, message):
        if 'method' in message and 'id' in message:
            # The server asks (progress tokens, watchers, refresh): accept.
            self.send({'jsonrpc': '2.0', 'id': message['id'], 'result': None})
            with self.cond:
                self.server_requests.append(message)
                self.cond.notify_all()
            return
        with self.cond:
            if 'method' in message:
                self.notifications.append((time.monotonic(), message))
            else:
                self.responses[message.get('id')] = message
            self.cond.notify_all()

    def response(self, request_id, timeout=120):
        """The whole response message (with 'result' or 'error')."""
        with self.cond:
            ok = self.cond.wait_for(
                lambda: request_id in self.responses or self.closed, timeout)
            if request_id in self.responses:
                return self.responses.pop(request_id)
        raise AssertionError('no response to request %r within %d s%s' % (
            request_id, timeout, ' (the server exited)' if ok else ''))

    def wait_for(self, predicate, timeout, what):
        """Waits until predicate(notifications) is true; returns its value."""
        deadline = time.monotonic() + timeout
        with self.cond:
            while True:
                value = predicate([m for _, m in self.notifications])
                if value:
                    return value
                remaining = deadline - time.monotonic()
                if remaining <= 0 or self.closed:
                    raise AssertionError(
                        'waited %d s for %s%s' % (timeout, what,
                                                  ' (the server exited)' if self.closed else ''))
                self.cond.wait(remaining)

    def published(self, uri, version=None):
        """The last publishDiagnostics of uri (for that version), or None."""
        last = None
        for _, m in self.notifications:
            if m.get('method') == 'textDocument/publishDiagnostics' and \
                    m['params']['uri'] == uri and \
                    (version is None or m['params'].get('version') == version):
                last = m['params']
        return last

    def wait_published(self, uri, version, timeout):
        return self.wait_for(lambda _: self.published(uri, version), timeout,
                             'the diagnostics of %s version %s' % (uri, version))

    # -- lifecycle -------------------------------------------------------
    def initialize(self, root, capabilities=None, timeout=60):
        result = self.request('initialize', {
            'processId': None,
            'rootUri': file_uri(root),
            'capabilities': capabilities if capabilities is not None else {
                'window': {'workDoneProgress': True},
                'textDocument': {'publishDiagnostics': {'relatedInformation': True,
                                                        'versionSupport': True}},
            },
        }, timeout)
        self.notify('initialized', {})
        return result

    def shutdown(self, timeout=60):
        """shutdown, then exit; returns the exit status."""
        response = self.request('shutdown', None, timeout)
        self.notify('exit', None)
        status = self.proc.wait(timeout)
        self.close()
        return response, status

    def kill(self):
        if self.proc.poll() is None:
            self.proc.kill()
            self.proc.wait()
        self.close()

    def close(self):
        for stream in (self.proc.stdin, self.proc.stdout):
            try:
                stream.close()
            except OSError:
                pass
        if self.stderr is not subprocess.DEVNULL:
            self.stderr.close()
