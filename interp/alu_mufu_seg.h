/* alu_mufu_seg.h — the slice size shared by the build-time table re-packer
 * (mufu/mufu_seg.c) and its reader (alu_mufu.c). */
#ifndef PTXI_ALU_MUFU_SEG_H
#define PTXI_ALU_MUFU_SEG_H

enum { MUFU_SEG_LOG = 12, MUFU_SEG = 1 << MUFU_SEG_LOG };

#endif
