/*
 * A tiny JSON tree for test fixtures: strings and literals keep their raw text (escapes untouched),
 * objects keep key order. Enough to edit a ResourceList; not a general-purpose library.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct J {
  char t;          /* 'o' object, 'a' array, 'r' raw (string with quotes, number, true, false, null) */
  char *raw;
  int n, cap;
  char **keys;     /* raw keys, quotes included */
  struct J **vals;
} J;

static const char *jp;

static void *xalloc(size_t n) {
  void *p = malloc(n);
  if (!p) { fputs("out of memory\n", stderr); exit(3); }
  return p;
}

static J *j_new(char t) {
  J *j = xalloc(sizeof(J));
  memset(j, 0, sizeof(J));
  j->t = t;
  return j;
}

static J *j_raw(const char *s) {
  J *j = j_new('r');
  j->raw = strdup(s);
  return j;
}

static void j_push(J *j, char *key, J *v) {
  if (j->n == j->cap) {
    j->cap = j->cap ? j->cap * 2 : 4;
    j->keys = realloc(j->keys, sizeof(char *) * j->cap);
    j->vals = realloc(j->vals, sizeof(J *) * j->cap);
    if (!j->keys || !j->vals) { fputs("out of memory\n", stderr); exit(3); }
  }
  j->keys[j->n] = key;
  j->vals[j->n++] = v;
}

static void ws(void) { while (*jp == ' ' || *jp == '\n' || *jp == '\r' || *jp == '\t') jp++; }

static char *scan_string(void) {
  const char *s = jp++;
  while (*jp && *jp != '"') { if (*jp == '\\' && jp[1]) jp++; jp++; }
  if (*jp) jp++;
  size_t n = (size_t)(jp - s);
  char *out = xalloc(n + 1);
  memcpy(out, s, n);
  out[n] = 0;
  return out;
}

static J *j_parse(void) {
  ws();
  if (*jp == '{' || *jp == '[') {
    char open = *jp++, close = open == '{' ? '}' : ']';
    J *j = j_new(open == '{' ? 'o' : 'a');
    ws();
    if (*jp == close) { jp++; return j; }
    for (;;) {
      char *key = NULL;
      ws();
      if (open == '{') { key = scan_string(); ws(); if (*jp == ':') jp++; }
      j_push(j, key, j_parse());
      ws();
      if (*jp == ',') { jp++; continue; }
      if (*jp == close) jp++;
      return j;
    }
  }
  if (*jp == '"') { J *j = j_new('r'); j->raw = scan_string(); return j; }
  const char *s = jp;
  while (*jp && !strchr(",}] \t\r\n", *jp)) jp++;
  J *j = j_new('r');
  j->raw = xalloc((size_t)(jp - s) + 1);
  memcpy(j->raw, s, (size_t)(jp - s));
  j->raw[jp - s] = 0;
  return j;
}

static J *j_get(J *o, const char *rawkey) {
  if (!o || o->t != 'o') return NULL;
  for (int i = 0; i < o->n; i++) if (strcmp(o->keys[i], rawkey) == 0) return o->vals[i];
  return NULL;
}

/* The child object at rawkey, created (appended) when missing. */
static J *j_obj(J *o, const char *rawkey) {
  J *v = j_get(o, rawkey);
  if (v) return v;
  v = j_new('o');
  j_push(o, strdup(rawkey), v);
  return v;
}

static void j_set(J *o, const char *rawkey, J *v) {
  for (int i = 0; i < o->n; i++) if (strcmp(o->keys[i], rawkey) == 0) { o->vals[i] = v; return; }
  j_push(o, strdup(rawkey), v);
}

static void j_write(FILE *f, J *j) {
  if (j->t == 'r') { fputs(j->raw, f); return; }
  fputc(j->t == 'o' ? '{' : '[', f);
  for (int i = 0; i < j->n; i++) {
    if (i) fputc(',', f);
    if (j->t == 'o') { fputs(j->keys[i], f); fputc(':', f); }
    j_write(f, j->vals[i]);
  }
  fputc(j->t == 'o' ? '}' : ']', f);
}

static char *read_stdin(void) {
  size_t cap = 65536, n = 0, r;
  char *buf = xalloc(cap);
  while ((r = fread(buf + n, 1, cap - n - 1, stdin)) > 0) {
    n += r;
    if (cap - n < 2) { cap *= 2; buf = realloc(buf, cap); if (!buf) { fputs("out of memory\n", stderr); exit(3); } }
  }
  buf[n] = 0;
  return buf;
}
