/* errors.c — names, messages and stickiness of ptxi_status, all generated from
 * the one PTXI_ERROR_LIST in ptxi.h. Codes are sparse (0-16, 100-108), so the
 * lookups are switches, which the compiler turns into tables. Also the one-time
 * notes the CUDA libraries print ("ptxi: cuXxx is not implemented"). */
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "ptxi.h"

const char *ptxi_error_name(ptxi_status s) {
    switch (s) {
#define X_(e, v, sticky, m) \
    case PTXI_##e: return "PTXI_" #e;
        PTXI_ERROR_LIST(X_)
#undef X_
    }
    return "PTXI_UNKNOWN_ERROR";
}

const char *ptxi_error_string(ptxi_status s) {
    switch (s) {
#define X_(e, v, sticky, m) \
    case PTXI_##e: return m;
        PTXI_ERROR_LIST(X_)
#undef X_
    }
    return "unknown error";
}

int ptxi_error_is_sticky(ptxi_status s) {
    switch (s) {
#define X_(e, v, sticky, m) \
    case PTXI_##e: return sticky;
        PTXI_ERROR_LIST(X_)
#undef X_
    }
    return 0;
}

void ptxi_warn_once(const char *what) {
    static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
    static struct seen {
        struct seen *next;
        char what[];
    } * seen;
    pthread_mutex_lock(&lock);
    struct seen *s = seen;
    while (s && strcmp(s->what, what)) s = s->next;
    if (!s && (s = malloc(sizeof *s + strlen(what) + 1))) {
        strcpy(s->what, what);
        s->next = seen;
        seen = s;
        fflush(stdout);
        fprintf(stderr, "ptxi: %s\n", what);
    }
    pthread_mutex_unlock(&lock);
}
