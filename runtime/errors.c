/* errors.c — names, messages and stickiness of ptxi_status, all generated from
 * the one PTXI_ERROR_LIST in ptxi.h. Codes are sparse (0-16, 100-108), so the
 * lookups are switches, which the compiler turns into tables. */
#include "ptxi.h"

const char *ptxi_error_name(ptxi_status s)
{
    switch (s) {
#define X_(e, v, sticky, m) case PTXI_##e: return "PTXI_" #e;
    PTXI_ERROR_LIST(X_)
#undef X_
    }
    return "PTXI_UNKNOWN_ERROR";
}

const char *ptxi_error_string(ptxi_status s)
{
    switch (s) {
#define X_(e, v, sticky, m) case PTXI_##e: return m;
    PTXI_ERROR_LIST(X_)
#undef X_
    }
    return "unknown error";
}

int ptxi_error_is_sticky(ptxi_status s)
{
    switch (s) {
#define X_(e, v, sticky, m) case PTXI_##e: return sticky;
    PTXI_ERROR_LIST(X_)
#undef X_
    }
    return 0;
}
