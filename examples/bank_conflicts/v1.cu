// kerndiff: block=256 grid=ceil(n/32)*ceil(n/32) n=4096 in=n*n out=n*n
/* bank_conflicts, v1 — out = transpose(in) for an n x n row-major matrix, staged through a
 * 32x32 shared-memory tile. The launch is 1-D: blockIdx.x picks the tile and the 256 threads
 * act as a 32x8 grid, each copying 4 rows of the tile.
 * The tile is float[32][32].
 *
 * Verified with nvcc 13.0 -arch=sm_90 -lineinfo (PTX opcode counts; SASS from cuobjdump -sass;
 * registers/smem from -Xptxas -v). Expected kerndiff v1 -> v2:
 *   ptxas shared memory 4096 -> 4224 bytes (.shared tile: 32*32*4 -> 32*33*4)
 *   PTX  ld.shared.f32 1 -> 1, st.shared.f32 1 -> 1, bar.sync 1 -> 1 (same accesses);
 *        tile addressing shl.b32 7 -> 5, mad.lo.s32 0 -> 2 (row stride 128 B -> 132 B)
 *   SASS 400 -> 400 instructions; registers 30 -> 30
 *   The 32-way conflict on v1's column read tile[tx][r] (every lane in bank r) disappears in
 *   v2 (lane tx hits bank (tx + r) % 32); only timing or a profiler sees that.
 */

#define TILE 32
#define ROWS_PER_PASS 8   // 256 threads / 32 columns

__global__ void transpose(const float* in, float* out, int n)
{
    __shared__ float tile[TILE][TILE];
    int tiles = (n + TILE - 1) / TILE;
    int tile_col = blockIdx.x % tiles, tile_row = blockIdx.x / tiles;
    int tx = threadIdx.x % TILE, ty = threadIdx.x / TILE;

    int col = tile_col * TILE + tx;
    for (int r = ty; r < TILE; r += ROWS_PER_PASS) {
        int row = tile_row * TILE + r;
        if (row < n && col < n)
            tile[r][tx] = in[(size_t)row * n + col];
    }
    __syncthreads();

    // The tile lands mirrored: its rows become output columns.
    col = tile_row * TILE + tx;
    for (int r = ty; r < TILE; r += ROWS_PER_PASS) {
        int row = tile_col * TILE + r;
        if (row < n && col < n)
            out[(size_t)row * n + col] = tile[tx][r];
    }
}
