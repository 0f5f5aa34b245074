/* The commands' rows, read (cli/command.h): lookups, and what a row accepts. */
#include "cli/command.h"

#include <stdio.h>
#include <string.h>

const kd_command_row *kd_command_by_id(const kd_command_row *rows, kd_command id)
{
    for (const kd_command_row *r = rows; r && r->name; r++)
        if (r->id == id)
            return r;
    return NULL;
}

bool kd_command_has_word(const kd_command_row *row)
{
    return !(row->flags & (KD_CMDF_DEFAULT | KD_CMDF_BY_OPTION));
}

const kd_command_row *kd_command_by_word(const kd_command_row *rows, const char *word)
{
    for (const kd_command_row *r = rows; word && r && r->name; r++)
        if (kd_command_has_word(r) && strcmp(r->name, word) == 0)
            return r;
    return NULL;
}

const kd_command_row *kd_command_default(const kd_command_row *rows)
{
    for (const kd_command_row *r = rows; r && r->name; r++)
        if (r->flags & KD_CMDF_DEFAULT)
            return r;
    return NULL;
}

/* Whether `list` (","-separated names, up to `end`) holds `option`. */
static bool listed(const char *list, const char *end, const char *option)
{
    size_t len = strlen(option);
    for (const char *p = list; p < end;) {
        size_t item = strcspn(p, ",|");
        if (p + item > end)
            item = (size_t)(end - p);
        if (item == len && strncmp(p, option, len) == 0)
            return true;
        p += item + 1;
    }
    return false;
}

bool kd_command_accepts(const kd_command_row *row, const char *group, const char *option)
{
    size_t glen = strlen(group);
    for (const char *item = row->groups; item && *item;) {
        size_t len = strcspn(item, "|");
        if (len >= glen && strncmp(item, group, glen) == 0) {
            if (len == glen)
                return true; /* the whole group */
            if (item[glen] == ':' && listed(item + glen + 1, item + len, option))
                return true;
        }
        item += len + (item[len] == '|');
    }
    return false;
}

bool kd_command_renders(const kd_command_row *row, const kd_format_option *o)
{
    for (unsigned k = 0; k < 8 * sizeof row->subjects; k++)
        if ((row->subjects & (1u << k)) && kd_format_option_renders(o, (kd_subject_kind)k))
            return true;
    return false;
}

const char *kd_command_usage(const kd_command_row *row, char *buf, size_t size)
{
    const char *line = row->help.synopsis ? row->help.synopsis : row->name;
    size_t len = strcspn(line, "\n");
    if (strncmp(line, "kerndiff ", 9) == 0) {
        line += 9;
        len -= 9;
    }
    const char *opt = strstr(line, "[options] ");
    if (opt && opt < line + len)
        snprintf(buf, size, "%.*s%.*s", (int)(opt - line), line, (int)(line + len - opt - 10), opt + 10);
    else
        snprintf(buf, size, "%.*s", (int)len, line);
    return buf;
}
