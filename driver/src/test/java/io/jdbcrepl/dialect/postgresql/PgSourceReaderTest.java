package io.jdbcrepl.dialect.postgresql;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/** The durability gate's wait (SPEC 8.8), and the purge horizon of a snapshot. */
class PgSourceReaderTest {

    @Test
    void theGateWaitsUntilTheFlushReachesTheBatchBound() throws Exception {
        AtomicInteger polls = new AtomicInteger();
        long[] flushed = {100};
        boolean reached = PgSourceReader.awaitFlush(() -> {
            polls.incrementAndGet();
            return flushed[0] += 10;
        }, 150, 10_000);
        assertThat(reached).isTrue();
        assertThat(polls.get()).isEqualTo(5); // 110 … 150: it went on at the first poll at the bound, not before
    }

    @Test
    void theGateGoesOnAfterItsLongestWait() throws Exception {
        long start = System.nanoTime();
        assertThat(PgSourceReader.awaitFlush(() -> 100, 150, 60)).isFalse();
        assertThat((System.nanoTime() - start) / 1_000_000).isBetween(60L, 2_000L);
    }

    @Test
    void thePurgeHorizonIsASnapshotsXmin() {
        assertThat(PostgresSourceReaders.xmin("734:740:735,738")).isEqualTo(734);
    }
}
