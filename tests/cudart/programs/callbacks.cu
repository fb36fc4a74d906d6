// callbacks.cu — host functions and stream callbacks run as soon as the work before
// them on their stream is done, whether or not the host waits for that stream, in
// stream order; callbacks after a cudaStreamWaitEvent run once the event (recorded in
// another stream or another host thread) is reached; a kernel after a host function
// sees what it wrote; event and stream queries answer NotReady while a callback is
// pending; the driver's cuLaunchHostFunc shares the queue.
#include "check.h"
#include <atomic>
#include <chrono>
#include <cuda.h>
#include <thread>

static std::atomic<int> ran{0}, order_bad{0}, gate{0}, counter{0};
static int last_of[4] = {-1, -1, -1, -1};

struct Tag {
    int stream, index;
};

static void CUDART_CB in_order(cudaStream_t, cudaError_t status, void *user) {
    Tag *t = (Tag *)user;
    if (status != cudaSuccess || last_of[t->stream] != t->index - 1) order_bad++;
    last_of[t->stream] = t->index;
    ran++;
}

static void CUDART_CB wait_gate(void *) {
    while (!gate.load()) std::this_thread::sleep_for(std::chrono::milliseconds(1));
}

static int seen_by_b = -1;
static int shared_value = 0;
static void CUDART_CB slow_writer(void *) {
    std::this_thread::sleep_for(std::chrono::milliseconds(100));
    shared_value = 7;
}
static void CUDART_CB reader(void *) { seen_by_b = shared_value; }

static void CUDART_CB set_host(void *p) { *(int *)p = 42; }

static void CUDART_CB count(void *) { counter++; }

__global__ void add_from(int *dst, const int *src) { *dst = *src + 1; }

static bool wait_until(int want) {
    for (int i = 0; i < 20000 && ran.load() < want; i++) std::this_thread::sleep_for(std::chrono::milliseconds(1));
    return ran.load() >= want;
}

int main() {
    CHECK(cudaFree(0));
    // callbacks on several streams that are never synchronized
    cudaStream_t s[4];
    for (int i = 0; i < 4; i++) CHECK(cudaStreamCreate(&s[i]));
    static Tag tags[4][5];
    int *d;
    CHECK(cudaMalloc(&d, 16 * sizeof(int)));
    for (int k = 0; k < 5; k++)
        for (int i = 0; i < 4; i++) {
            tags[i][k] = Tag{i, k};
            CHECK(cudaMemsetAsync(d + i, k, sizeof(int), s[i]));
            CHECK(cudaStreamAddCallback(s[i], in_order, &tags[i][k], 0));
        }
    printf("20 callbacks ran without a wait: %s, out of order: %d\n", wait_until(20) ? "yes" : "no",
           order_bad.load());

    // a callback that blocks keeps its stream, and events after it, not ready
    cudaEvent_t after_gate;
    CHECK(cudaEventCreateWithFlags(&after_gate, cudaEventDisableTiming));
    CHECK(cudaLaunchHostFunc(s[0], wait_gate, nullptr));
    CHECK(cudaStreamAddCallback(s[0], in_order, &tags[0][0], 0));   // index 0 after 4: counted as out of order
    CHECK(cudaEventRecord(after_gate, s[0]));
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
    SHOW(cudaEventQuery(after_gate));
    SHOW(cudaStreamQuery(s[0]));
    SHOW(cudaStreamQuery(s[1]));
    gate = 1;
    SHOW(cudaEventSynchronize(after_gate));
    SHOW(cudaEventQuery(after_gate));
    SHOW(cudaStreamQuery(s[0]));
    printf("callbacks run: %d, out of order: %d\n", ran.load(), order_bad.load());

    // a callback after a wait on an event of another stream runs after the work before that event
    cudaEvent_t written;
    CHECK(cudaEventCreateWithFlags(&written, cudaEventDisableTiming));
    CHECK(cudaLaunchHostFunc(s[1], slow_writer, nullptr));
    CHECK(cudaEventRecord(written, s[1]));
    CHECK(cudaStreamWaitEvent(s[2], written, 0));
    CHECK(cudaLaunchHostFunc(s[2], reader, nullptr));
    CHECK(cudaStreamSynchronize(s[2]));
    printf("reader after cudaStreamWaitEvent saw %d\n", seen_by_b);

    // the event recorded by another host thread
    shared_value = 0, seen_by_b = -1;
    cudaEvent_t other;
    CHECK(cudaEventCreateWithFlags(&other, cudaEventDisableTiming));
    std::thread t([&] {
        cudaLaunchHostFunc(s[3], slow_writer, nullptr);
        cudaEventRecord(other, s[3]);
    });
    t.join();
    CHECK(cudaStreamWaitEvent(s[2], other, 0));
    CHECK(cudaLaunchHostFunc(s[2], reader, nullptr));
    CHECK(cudaStreamSynchronize(s[2]));
    printf("reader after an event of another thread saw %d\n", seen_by_b);

    // a kernel after a host function in its stream sees what it wrote
    int *h;
    CHECK(cudaHostAlloc(&h, 2 * sizeof(int), cudaHostAllocMapped));
    h[0] = 0, h[1] = 0;
    CHECK(cudaLaunchHostFunc(s[1], slow_writer, nullptr));
    CHECK(cudaLaunchHostFunc(s[1], set_host, h));
    add_from<<<1, 1, 0, s[1]>>>(h + 1, h);
    CHECK(cudaStreamSynchronize(s[1]));
    printf("kernel after host function: %d\n", h[1]);

    // the legacy default stream waits for the callbacks of blocking streams
    shared_value = 0;
    CHECK(cudaLaunchHostFunc(s[3], slow_writer, nullptr));
    CHECK(cudaLaunchHostFunc(0, reader, nullptr));
    CHECK(cudaStreamSynchronize(0));
    printf("default stream callback saw %d\n", seen_by_b);

    // the driver API's host functions share the queue
    CUstream cs = (CUstream)s[0];
    for (int i = 0; i < 3; i++)
        if (cuLaunchHostFunc(cs, count, nullptr) != CUDA_SUCCESS) return 2;
    int synced = (int)cuStreamSynchronize(cs);
    printf("cuStreamSynchronize -> %d, counted %d\n", synced, counter.load());
    SHOW(cudaLaunchHostFunc(s[0], nullptr, nullptr));
    SHOW(cudaStreamAddCallback(s[0], in_order, nullptr, 1));

    // queued and never waited for: the program must still end
    for (int i = 0; i < 4; i++) CHECK(cudaLaunchHostFunc(s[i], count, nullptr));
    printf("done\n");
    return 0;
}
