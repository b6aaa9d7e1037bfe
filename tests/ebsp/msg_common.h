/* msg_common.h - what msg_host and msg_kernel agree on: message sizes and
 * the bytes of tags and payloads. */
#define NSIZES 10
static const int sizes[NSIZES] = { 0, 1, 3, 8, 17, 255, 4096, 65537, 300000, 1 << 20 };

/* Byte i of message k's payload (or tag) for processor pid, direction dir. */
static inline unsigned char msg_byte(int dir, int pid, int k, int i)
{
    return (unsigned char)(dir * 101 + pid * 31 + k * 7 + i * 13 + (i >> 8));
}
