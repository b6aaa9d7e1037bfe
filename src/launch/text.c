/*
 * text.c - text for the job's lines: a user's message made one line, and
 * the async-signal-safe pieces that signal handlers and the supervisor
 * build their lines from (no stdio there).
 *
 * Every report is one line (docs/conventions.md), but a message given to
 * bsp_abort (or any call that prints a user's text) may hold newlines.
 * BSPlib programs usually end their messages with one, so trailing
 * newlines (and carriage returns) are dropped; an interior newline is shown
 * as the two characters "\n" (a carriage return as "\r"), so the line stays
 * one line and still says where the program broke it.
 */
#include "launch/launch_impl.h"

#include <string.h>

void launch_one_line(char *msg, size_t cap)
{
    size_t n = strlen(msg);
    while (n && (msg[n - 1] == '\n' || msg[n - 1] == '\r'))
        msg[--n] = 0;
    size_t breaks = 0;
    for (size_t i = 0; i < n; i++)
        breaks += msg[i] == '\n' || msg[i] == '\r';
    if (!breaks || cap == 0)
        return;
    /* Escape from the end backwards, in place; what does not fit is cut
     * (the text is a diagnosis, its end matters least). */
    size_t out = n + breaks;
    if (out > cap - 1) {
        /* Cut the input until the escaped text fits. */
        while (n && n + breaks > cap - 1) {
            n--;
            if (msg[n] == '\n' || msg[n] == '\r')
                breaks--;
        }
        out = n + breaks;
    }
    msg[out] = 0;
    for (size_t i = n; i-- > 0;) {
        char c = msg[i];
        if (c == '\n' || c == '\r') {
            msg[--out] = c == '\n' ? 'n' : 'r';
            msg[--out] = '\\';
        } else {
            msg[--out] = c;
        }
    }
}

size_t launch_put_str(char *buf, size_t at, size_t cap, const char *s)
{
    while (*s && at + 1 < cap)
        buf[at++] = *s++;
    buf[at] = 0;
    return at;
}

size_t launch_put_u64(char *buf, size_t at, size_t cap, uint64_t v)
{
    char digits[24];
    int n = 0;
    do
        digits[n++] = (char)('0' + v % 10);
    while ((v /= 10) != 0);
    while (n && at + 1 < cap)
        buf[at++] = digits[--n];
    buf[at] = 0;
    return at;
}

/* "SEGV" for SIGSEGV: glibc's abbreviation, "?" for a number it does not know. */
size_t put_killed(char *buf, size_t at, size_t cap, int sig)
{
    const char *abbrev = sigabbrev_np(sig);
    at = launch_put_str(buf, at, cap, "killed by signal ");
    at = launch_put_u64(buf, at, cap, (uint64_t)sig);
    at = launch_put_str(buf, at, cap, " (SIG");
    at = launch_put_str(buf, at, cap, abbrev ? abbrev : "?");
    return launch_put_str(buf, at, cap, ")");
}
