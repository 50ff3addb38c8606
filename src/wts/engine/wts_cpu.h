/* Which x86-64 microarchitecture level this CPU and its OS support, for the
 * choice of kernel at import (wts.engine.kernels).
 *
 * Levels as the x86-64 psABI defines them: 1 the baseline, 2 adds POPCNT and
 * SSE4.2, 3 AVX2, BMI1/2, FMA, LZCNT, MOVBE, 4 AVX-512 (F, BW, CD, DQ, VL).
 * The AVX levels also need the OS to save the vector registers (XGETBV).
 * One decoding of CPUID for every compiler: only reading CPUID and XCR0
 * differs. AArch64 reports level 2: NEON is part of every AArch64 CPU that
 * Linux, macOS and Windows run on, so no register needs reading. Other CPUs
 * report level 1: they run the baseline build.
 */
#ifndef WTS_CPU_H
#define WTS_CPU_H

#include <stdint.h>

#if defined(_MSC_VER) && (defined(_M_X64) || defined(_M_IX86))
#include <intrin.h>
#include <immintrin.h>
#define WTS_CPU_X86 1
static inline void wts_cpuid(uint32_t leaf, uint32_t sub, uint32_t r[4]) {
    int regs[4];
    __cpuidex(regs, (int)leaf, (int)sub);
    r[0] = (uint32_t)regs[0]; r[1] = (uint32_t)regs[1];
    r[2] = (uint32_t)regs[2]; r[3] = (uint32_t)regs[3];
}
static inline uint64_t wts_xgetbv0(void) { return (uint64_t)_xgetbv(0); }
#elif (defined(__GNUC__) || defined(__clang__)) && (defined(__x86_64__) || defined(__i386__))
#include <cpuid.h>
#define WTS_CPU_X86 1
static inline void wts_cpuid(uint32_t leaf, uint32_t sub, uint32_t r[4]) {
    unsigned a = 0, b = 0, c = 0, d = 0;
    if (!__get_cpuid_count(leaf, sub, &a, &b, &c, &d)) a = b = c = d = 0;  /* leaf too high */
    r[0] = a; r[1] = b; r[2] = c; r[3] = d;
}
/* As bytes: assemblers too old for the mnemonic still take it. */
static inline uint64_t wts_xgetbv0(void) {
    uint32_t lo, hi;
    __asm__ volatile(".byte 0x0f, 0x01, 0xd0" : "=a"(lo), "=d"(hi) : "c"(0));
    return ((uint64_t)hi << 32) | lo;
}
#endif

#define WTS_HAS(word, bit) (((word) >> (bit)) & 1u)

static inline int wts_cpu_level(void) {
#if defined(WTS_CPU_X86)
    uint32_t l0[4], l1[4], l7[4], e0[4], e1[4];
    uint64_t xcr0 = 0;
    wts_cpuid(0, 0, l0);
    wts_cpuid(0x80000000u, 0, e0);
    if (l0[0] < 7 || e0[0] < 0x80000001u) return 1;
    wts_cpuid(1, 0, l1);
    wts_cpuid(7, 0, l7);
    wts_cpuid(0x80000001u, 0, e1);
    /* ecx of leaf 1: SSE3 0, SSSE3 9, CX16 13, SSE4.1 19, SSE4.2 20, POPCNT 23;
     * LAHF/SAHF: ecx bit 0 of 0x80000001. */
    if (!(WTS_HAS(l1[2], 0) && WTS_HAS(l1[2], 9) && WTS_HAS(l1[2], 13) && WTS_HAS(l1[2], 19)
          && WTS_HAS(l1[2], 20) && WTS_HAS(l1[2], 23) && WTS_HAS(e1[2], 0)))
        return 1;
    /* OSXSAVE (ecx 27) before XGETBV; XCR0 bits 1-2: the OS saves SSE and AVX state. */
    if (WTS_HAS(l1[2], 27)) xcr0 = wts_xgetbv0();
    /* ecx of leaf 1: FMA 12, MOVBE 22, AVX 28, F16C 29; ebx of leaf 7: BMI1 3,
     * AVX2 5, BMI2 8; LZCNT: ecx bit 5 of 0x80000001. */
    if (!((xcr0 & 0x6) == 0x6 && WTS_HAS(l1[2], 12) && WTS_HAS(l1[2], 22)
          && WTS_HAS(l1[2], 28) && WTS_HAS(l1[2], 29) && WTS_HAS(l7[1], 3)
          && WTS_HAS(l7[1], 5) && WTS_HAS(l7[1], 8) && WTS_HAS(e1[2], 5)))
        return 2;
    /* ebx of leaf 7: AVX512F 16, DQ 17, CD 28, BW 30, VL 31; XCR0 bits 5-7:
     * the opmask and ZMM state. */
    if (!((xcr0 & 0xE0) == 0xE0 && WTS_HAS(l7[1], 16) && WTS_HAS(l7[1], 17)
          && WTS_HAS(l7[1], 28) && WTS_HAS(l7[1], 30) && WTS_HAS(l7[1], 31)))
        return 3;
    return 4;
#elif defined(__aarch64__) || defined(_M_ARM64)
    return 2;
#else
    return 1;
#endif
}

#undef WTS_HAS

#endif /* WTS_CPU_H */
