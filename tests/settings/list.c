/* list.c - print the settings parser's table, as docs/settings.md's
 * table rows (markdown) or as superstep(7)'s entries (man); table.sh
 * compares them with the documents.
 * Usage: list markdown|man */
// RUN: n=1 args="markdown" out="^\| .SUPERSTEP_NPROCS. \| processors"
// RUN: n=1 args="man" out="^\.B SUPERSTEP_SEGMENT_SIZE$"
#include "settings/settings.h"

#include <stdio.h>
#include <string.h>

/* roff: a '-' is a hyphen unless escaped; '\' starts an escape. */
static void roff(const char *s)
{
    for (; *s; s++) {
        if (*s == '-' || *s == '\\')
            putchar('\\');
        putchar(*s);
    }
    putchar('\n');
}

int main(int argc, char **argv)
{
    if (argc != 2 || (strcmp(argv[1], "markdown") && strcmp(argv[1], "man"))) {
        fprintf(stderr, "usage: list markdown|man\n");
        return 2;
    }
    bool man = !strcmp(argv[1], "man");
    if (!man)
        printf("| variable | meaning | default | accepted values |\n| --- | --- | --- | --- |\n");
    for (int s = 0; s < SET_COUNT; s++) {
        const struct setting_info *i = setting_info((enum setting)s);
        if (!man) {
            printf("| `%s` | %s | %s | %s |\n", i->name, i->meaning, i->def, i->accepted);
            continue;
        }
        printf(".TP\n.B %s\n", i->name);
        roff(i->meaning);
        printf(".br\nDefault: ");
        roff(i->def);
        printf(".br\nAccepted: ");
        roff(i->accepted);
    }
    return 0;
}
