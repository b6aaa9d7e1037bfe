/* stream_common.h - what stream_host and stream_kernel agree on. */
#define TOKEN 100                  /* bytes per token of the down streams */
#define DOWN_BYTES (10 * TOKEN + 36) /* so 11 tokens, the last of 36 bytes */
#define DOWN_TOKENS 11
#define UP_TOKENS 5                /* tokens each processor writes up per run */
#define UP_TOKEN 24                /* their size */

/* Byte i of the down stream of processor s. */
static inline unsigned char down_byte(int s, int i)
{
    return (unsigned char)(s * 17 + i * 3 + (i / TOKEN));
}
