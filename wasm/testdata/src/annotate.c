/* annotate: reads a JSON ResourceList and adds annotation wasm.krmfn.dev/touched: "true" to every item. */
#include "json.h"
int main(void) {
  jp = read_stdin();
  J *rl = j_parse();
  J *items = j_get(rl, "\"items\"");
  int n = 0;
  if (items && items->t == 'a') {
    for (int i = 0; i < items->n; i++) {
      J *ann = j_obj(j_obj(items->vals[i], "\"metadata\""), "\"annotations\"");
      j_set(ann, "\"wasm.krmfn.dev/touched\"", j_raw("\"true\""));
      n++;
    }
  }
  j_write(stdout, rl);
  fputc('\n', stdout);
  fprintf(stderr, "annotated %d resources\n", n);
  return 0;
}
