"""A real SMTP relay for the tests: Debian's python3-aiosmtpd with STARTTLS (or implicit TLS) and AUTH.

Usage: smtp_server.py PORT CERT KEY USER PASSWORD [starttls|implicit]
Prints "ready PORT" once listening, then one JSON line per accepted message: the envelope, the raw message
and the decoded subject and body (quoted-printable and encoded words undone by Python's email package).
"""
import asyncio
import email
import email.policy
import json
import ssl
import sys

from aiosmtpd.smtp import SMTP, AuthResult, LoginPassword

port, cert, key, user, password = sys.argv[1:6]
mode = sys.argv[6] if len(sys.argv) > 6 else "starttls"

context = ssl.create_default_context(ssl.Purpose.CLIENT_AUTH)
context.load_cert_chain(cert, key)


def authenticator(server, session, envelope, mechanism, auth_data):
    ok = isinstance(auth_data, LoginPassword) and auth_data.login.decode() == user \
        and auth_data.password.decode() == password
    return AuthResult(success=ok, handled=False)  # unhandled: aiosmtpd answers 535 itself


class Handler:
    async def handle_DATA(self, server, session, envelope):
        message = email.message_from_bytes(envelope.content, policy=email.policy.default)
        print(json.dumps({
            "from": envelope.mail_from,
            "to": envelope.rcpt_tos,
            "raw": envelope.content.decode("utf-8", "replace"),
            "subject": str(message["subject"]),
            "body": message.get_body().get_content().replace("\r\n", "\n"),
            "authenticated": bool(session.authenticated),
            "tls": mode == "implicit" or session.ssl is not None,
        }), flush=True)
        return "250 OK queued"


def factory():
    if mode == "implicit":
        # TLS from the first byte: aiosmtpd cannot see it, so it is told not to insist on STARTTLS before AUTH.
        return SMTP(Handler(), authenticator=authenticator, auth_required=True, auth_require_tls=False,
                    hostname="test-relay")
    return SMTP(Handler(), tls_context=context, require_starttls=True, authenticator=authenticator,
                auth_required=True, auth_require_tls=True, hostname="test-relay")


async def main():
    loop = asyncio.get_running_loop()
    server = await loop.create_server(factory, "127.0.0.1", int(port),
                                      ssl=context if mode == "implicit" else None)
    print(f"ready {server.sockets[0].getsockname()[1]}", flush=True)
    await server.serve_forever()


asyncio.run(main())
