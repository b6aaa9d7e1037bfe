/*
 * json.h - the small JSON reader bspprof reads traces with (header-only:
 * the tools are one program per .c file).
 */
#ifndef SUPERSTEP_TOOLS_PROF_JSON_H
#define SUPERSTEP_TOOLS_PROF_JSON_H

#include <ctype.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>


enum jtype { J_NULL, J_BOOL, J_NUM, J_STR, J_ARR, J_OBJ };

struct jv {
    enum jtype t;
    double num;
    char *str;
    struct jv *kid;  /* array items or object values */
    char **key;      /* object keys */
    size_t n;
};

struct parser {
    const char *begin, *s, *end;
    const char *file;
};

static void perr(struct parser *ps, const char *what)
{
    size_t line = 1;
    for (const char *c = ps->begin; c < ps->s && c < ps->end; c++)
        line += *c == '\n';
    fprintf(stderr, "bspprof: %s:%zu: invalid JSON: %s\n", ps->file, line, what);
    exit(1);
}

static void ws(struct parser *ps)
{
    while (ps->s < ps->end && isspace((unsigned char)*ps->s))
        ps->s++;
}

static void *xrealloc(void *p, size_t n)
{
    void *q = realloc(p, n ? n : 1);
    if (!q) {
        fprintf(stderr, "bspprof: out of memory\n");
        exit(1);
    }
    return q;
}

static char *pstring(struct parser *ps)
{
    if (ps->s >= ps->end || *ps->s != '"')
        perr(ps, "expected a string");
    ps->s++;
    size_t cap = 16, n = 0;
    char *out = xrealloc(NULL, cap);
    while (ps->s < ps->end && *ps->s != '"') {
        char c = *ps->s++;
        if (c == '\\') {
            if (ps->s >= ps->end)
                perr(ps, "unterminated string");
            c = *ps->s++;
            switch (c) {
            case 'n': c = '\n'; break;
            case 't': c = '\t'; break;
            case 'r': c = '\r'; break;
            case 'b': c = '\b'; break;
            case 'f': c = '\f'; break;
            case 'u':
                if (ps->end - ps->s < 4)
                    perr(ps, "bad \\u escape");
                ps->s += 4;
                c = '?';
                break;
            default: break; /* \" \\ \/ */
            }
        }
        if (n + 2 > cap)
            out = xrealloc(out, cap *= 2);
        out[n++] = c;
    }
    if (ps->s >= ps->end)
        perr(ps, "unterminated string");
    ps->s++;
    out[n] = 0;
    return out;
}

static void pvalue(struct parser *ps, struct jv *v)
{
    memset(v, 0, sizeof *v);
    ws(ps);
    if (ps->s >= ps->end)
        perr(ps, "unexpected end");
    char c = *ps->s;
    if (c == '{' || c == '[') {
        bool obj = c == '{';
        v->t = obj ? J_OBJ : J_ARR;
        ps->s++;
        size_t cap = 0;
        ws(ps);
        if (ps->s < ps->end && *ps->s == (obj ? '}' : ']')) {
            ps->s++;
            return;
        }
        for (;;) {
            if (v->n == cap) {
                cap = cap ? 2 * cap : 4;
                v->kid = xrealloc(v->kid, cap * sizeof *v->kid);
                if (obj)
                    v->key = xrealloc(v->key, cap * sizeof *v->key);
            }
            if (obj) {
                ws(ps);
                v->key[v->n] = pstring(ps);
                ws(ps);
                if (ps->s >= ps->end || *ps->s != ':')
                    perr(ps, "expected ':'");
                ps->s++;
            }
            pvalue(ps, &v->kid[v->n++]);
            ws(ps);
            if (ps->s < ps->end && *ps->s == ',') {
                ps->s++;
                continue;
            }
            if (ps->s < ps->end && *ps->s == (obj ? '}' : ']')) {
                ps->s++;
                return;
            }
            perr(ps, obj ? "expected ',' or '}'" : "expected ',' or ']'");
        }
    } else if (c == '"') {
        v->t = J_STR;
        v->str = pstring(ps);
    } else if (c == 't' && ps->end - ps->s >= 4 && !strncmp(ps->s, "true", 4)) {
        v->t = J_BOOL;
        v->num = 1;
        ps->s += 4;
    } else if (c == 'f' && ps->end - ps->s >= 5 && !strncmp(ps->s, "false", 5)) {
        v->t = J_BOOL;
        ps->s += 5;
    } else if (c == 'n' && ps->end - ps->s >= 4 && !strncmp(ps->s, "null", 4)) {
        v->t = J_NULL;
        ps->s += 4;
    } else {
        char *e;
        v->t = J_NUM;
        v->num = strtod(ps->s, &e);
        if (e == ps->s)
            perr(ps, "unexpected character");
        ps->s = e;
    }
}

static void jfree(struct jv *v)
{
    for (size_t i = 0; i < v->n; i++) {
        jfree(&v->kid[i]);
        if (v->key)
            free(v->key[i]);
    }
    free(v->kid);
    free(v->key);
    free(v->str);
}

static const struct jv *jget(const struct jv *o, const char *key)
{
    if (!o || o->t != J_OBJ)
        return NULL;
    for (size_t i = 0; i < o->n; i++)
        if (!strcmp(o->key[i], key))
            return &o->kid[i];
    return NULL;
}

static double jnum(const struct jv *o, const char *key, double dflt)
{
    const struct jv *v = jget(o, key);
    return v && (v->t == J_NUM || v->t == J_BOOL) ? v->num : dflt;
}

static const char *jstr(const struct jv *o, const char *key)
{
    const struct jv *v = jget(o, key);
    return v && v->t == J_STR ? v->str : NULL;
}

#endif
