/* test_half_fast.c — the bit-twiddling f16/bf16 <-> f32 conversions of
 * alu_half.h agree with the generic rounding (itself checked against the GPU
 * recording in test_simd_table.c) on every f16/bf16 and on 2^24 spread f32
 * patterns, including every rounding boundary of the low bits. */
#include <criterion/criterion.h>

#include "alu_half.h"

Test(half_fast, widen_every_value) {
    int bad = 0;
    for (uint32_t h = 0; h < 65536; h++) {
        bad += alu_f16_to_f32((uint16_t)h) != (uint32_t)alu_fp_convert(ALU_FMT_F32, ALU_FMT_F16, h, ALU_RN, 0);
        uint32_t b = alu_bf16_to_f32((uint16_t)h);
        bool nan = (h & 0x7FFF) > 0x7F80;
        bad += nan ? b != h << 16 : b != (uint32_t)alu_fp_convert(ALU_FMT_F32, ALU_FMT_BF16, h, ALU_RN, 0);
    }
    cr_expect_eq(bad, 0);
}

Test(half_fast, narrow_rounds_like_the_generic_path, .timeout = 120) {
    int bad = 0;
    for (uint64_t i = 0; i < (1u << 24); i++) {
        /* high bits stepped, low 13/16 bits drawn from around the ties */
        static const uint32_t low[] = {0, 1, 0x0FFF, 0x1000, 0x1001, 0x1FFF, 0x7FFF, 0x8000, 0x8001, 0xFFFF};
        uint32_t x = (uint32_t)(i >> 4 << 20) ^ (uint32_t)(i * 0x9E3779B9u >> 12 & 0xF0000) ^ low[i % 10];
        bad += alu_f32_to_f16_rn(x) != (uint16_t)alu_fp_convert(ALU_FMT_F16, ALU_FMT_F32, x, ALU_RN, 0);
        bad += alu_f32_to_bf16_rn(x) != (uint16_t)alu_fp_convert(ALU_FMT_BF16, ALU_FMT_F32, x, ALU_RN, 0);
        if (bad > 10) break;
    }
    cr_expect_eq(bad, 0);
}

Test(half_fast, known_values) {
    cr_expect_eq(alu_f32_to_f16_rn(0x477FEFFF), 0x7BFF);
    cr_expect_eq(alu_f32_to_f16_rn(0x477FF000), 0x7C00);
    cr_expect_eq(alu_f32_to_f16_rn(0x33000001), 0x0001);
    cr_expect_eq(alu_f32_to_f16_rn(0xB3000000), 0x8000);
    cr_expect_eq(alu_f32_to_f16_rn(0x387FF000), 0x0400); /* rounds up into the normals */
    cr_expect_eq(alu_f32_to_f16_rn(0xFFC00000), 0x7FFF);
    cr_expect_eq(alu_f32_to_bf16_rn(0x7F7FFFFF), 0x7F80);
    cr_expect_eq(alu_f16_to_f32(0x0001), 0x33800000);
    cr_expect_eq(alu_f16_to_f32(0x03FF), 0x387FC000);
}
