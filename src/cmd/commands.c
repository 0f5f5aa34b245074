/* The command table (cmd/cmd.h). */
#include "cmd/cmd.h"

#include <stddef.h>

const kd_cmd kd_cmds[] = {
    {KD_CMD_DIFF, "diff", kd_cmd_diff},
    {KD_CMD_LIST, "list", kd_cmd_list},
    {KD_CMD_COMPARE, "compare", kd_cmd_compare},
    {KD_CMD_APP, "app", kd_cmd_app},
    {KD_CMD_HELP, "help", kd_cmd_help},
    {KD_CMD_VERSION, "version", kd_cmd_version},
    {KD_CMD_COMPLETION, "completion", kd_cmd_completion},
    {KD_CMD_CAPTURE, "capture", kd_cmd_capture},
    {KD_CMD_RANK, "rank", kd_cmd_rank},
    {0, NULL, NULL},
};

const kd_cmd *kd_cmd_find(kd_command id)
{
    for (const kd_cmd *c = kd_cmds; c->name; c++)
        if (c->id == id)
            return c;
    return NULL;
}
