package io.jdbcrepl.log;

import org.junit.jupiter.api.Test;

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;

class CommitSignalTest {

    @Test
    void oneSignalPerNodeName() {
        assertThat(CommitSignal.of("signal-a")).isSameAs(CommitSignal.of("signal-a")).isNotSameAs(CommitSignal.of("signal-b"));
    }

    @Test
    void awaitReturnsAtOnceWhenFiredSinceTheGenerationWasRead() throws Exception {
        CommitSignal signal = CommitSignal.of("signal-fired");
        long seen = signal.generation();
        signal.fire();
        long start = System.nanoTime();
        assertThat(signal.await(seen, 10_000)).isEqualTo(seen + 1);
        assertThat(System.nanoTime() - start).isLessThan(TimeUnit.SECONDS.toNanos(1));
    }

    @Test
    void awaitWakesOnFireFromAnotherThread() throws Exception {
        CommitSignal signal = CommitSignal.of("signal-thread");
        long seen = signal.generation();
        CompletableFuture<Long> waiter = CompletableFuture.supplyAsync(() -> {
            try {
                return signal.await(seen, 30_000);
            } catch (InterruptedException e) {
                throw new IllegalStateException(e);
            }
        });
        Thread.sleep(50);
        assertThat(waiter).isNotDone();
        signal.fire();
        assertThat(waiter.get(5, TimeUnit.SECONDS)).isGreaterThan(seen);
    }

    @Test
    void awaitTimesOutWithoutAFire() throws Exception {
        CommitSignal signal = CommitSignal.of("signal-quiet");
        long seen = signal.generation();
        long start = System.nanoTime();
        assertThat(signal.await(seen, 100)).isEqualTo(seen);
        assertThat(System.nanoTime() - start).isGreaterThanOrEqualTo(TimeUnit.MILLISECONDS.toNanos(90));
    }
}
