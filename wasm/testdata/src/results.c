/*
 * results: passes the items through and reports one result per item (info) plus one error-severity
 * result; exits 0, so the function still succeeds (kpt: error results alone do not fail it).
 */
#include "json.h"
int main(void) {
  jp = read_stdin();
  J *rl = j_parse();
  J *items = j_get(rl, "\"items\"");
  J *results = j_new('a');
  for (int i = 0; items && items->t == 'a' && i < items->n; i++) {
    J *r = j_new('o');
    j_set(r, "\"message\"", j_raw("\"seen by wasm\""));
    j_set(r, "\"severity\"", j_raw("\"info\""));
    J *ref = j_new('o');
    J *meta = j_get(items->vals[i], "\"metadata\"");
    j_set(ref, "\"apiVersion\"", j_get(items->vals[i], "\"apiVersion\"") ? j_get(items->vals[i], "\"apiVersion\"") : j_raw("\"\""));
    j_set(ref, "\"kind\"", j_get(items->vals[i], "\"kind\"") ? j_get(items->vals[i], "\"kind\"") : j_raw("\"\""));
    j_set(ref, "\"name\"", j_get(meta, "\"name\"") ? j_get(meta, "\"name\"") : j_raw("\"\""));
    j_set(r, "\"resourceRef\"", ref);
    j_push(results, NULL, r);
  }
  J *e = j_new('o');
  j_set(e, "\"message\"", j_raw("\"policy violated\""));
  j_set(e, "\"severity\"", j_raw("\"error\""));
  j_push(results, NULL, e);
  j_set(rl, "\"results\"", results);
  j_write(stdout, rl);
  fputc('\n', stdout);
  fputs("emitted results\n", stderr);
  return 0;
}
