package io.jdbcrepl.log;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/** The checks that a source went back in time (SPEC 8.8). */
class RewindTest {

    private static final Position.Snapshot NEW_PG = (Position.Snapshot) Position.initial(true);
    private static final Position.Snapshot LOW = new Position.Snapshot("100:120:105", null, 0, null);
    private static final Position.Snapshot IN_BATCH = new Position.Snapshot("100:120:105", "110:130:", 0, null).after(7, "125");

    @Test
    void aPostgresSourceWhoseNextIdIsBelowASnapshotSeenThereWentBack() {
        assertThat(Rewind.check(LOW, "119:119:")).contains("next transaction id is 119, below 120", "pg|100:120:105|");
        assertThat(Rewind.check(IN_BATCH, "125:129:")).contains("below 130");
        assertThat(Rewind.check(LOW, "100:120:105")).isNull(); // nothing happened since
        assertThat(Rewind.check(LOW, "121:140:")).isNull();
        assertThat(Rewind.check(IN_BATCH, "130:130:")).isNull();
        assertThat(Rewind.check(NEW_PG, "3:3:")).isNull(); // a new consumer has seen nothing
    }

    @Test
    void anEpochSourceMustCloseAtLeastTwoAboveTheLastEpochApplied() {
        Position.Epoch at = new Position.Epoch(41, 900, "abc-7");
        assertThat(Rewind.check(at, "43")).isNull();
        assertThat(Rewind.check(at, "42")).contains("closed at 42", "epoch 41");
        assertThat(Rewind.check(at, "2")).isNotNull();
        assertThat(Rewind.check(Position.initial(false), "2")).isNull(); // a fresh source: epoch 1, closed to 2
    }

    @Test
    void theSubscriberRowMustNotBeOlderThanWhatThisNodeWroteThere() {
        assertThat(Rewind.checkSubscriber(null, null)).isNull(); // never recorded: nothing to compare
        assertThat(Rewind.checkSubscriber(LOW, null)).contains("no row");
        assertThat(Rewind.checkSubscriber(LOW, LOW)).isNull();
        assertThat(Rewind.checkSubscriber(LOW, IN_BATCH)).isNull(); // newer: another applier wrote since
        assertThat(Rewind.checkSubscriber(IN_BATCH, IN_BATCH.closed())).isNull(); // the batch closed: same horizon
        assertThat(Rewind.checkSubscriber(IN_BATCH, LOW)).contains("holds pg|100:120:105||0|", "older than");
        assertThat(Rewind.checkSubscriber(LOW, NEW_PG)).isNotNull();

        Position.Epoch e = new Position.Epoch(10, 500, "b-2");
        assertThat(Rewind.checkSubscriber(e, e)).isNull();
        assertThat(Rewind.checkSubscriber(e, new Position.Epoch(10, 500, "a-1"))).isNull(); // tx ids are not ordered
        assertThat(Rewind.checkSubscriber(e, new Position.Epoch(11, 1, "a-1"))).isNull();
        assertThat(Rewind.checkSubscriber(e, new Position.Epoch(10, 499, "z-9"))).isNotNull();
        assertThat(Rewind.checkSubscriber(e, new Position.Epoch(9, 900, "z-9"))).isNotNull();
        assertThat(Rewind.checkSubscriber(e, LOW)).isNull(); // another vendor's position: no order
    }

    @Test
    void theReasonNamesTheSourceAndFitsTheColumn() {
        assertThat(Rewind.reason("n1", "its x")).startsWith("n1 went back in time").endsWith("its x");
        assertThat(Rewind.reason("n1", "x".repeat(5000))).hasSize(4000);
        assertThat(Rewind.horizon(NEW_PG)).isZero();
        assertThat(Rewind.xmax("734:740:735,738")).isEqualTo(740);
    }
}
