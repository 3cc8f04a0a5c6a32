package io.jdbcrepl.log;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

class PositionTest {

    @Test
    void snapshotPositionsRoundTrip() {
        Position.Snapshot fresh = (Position.Snapshot) Position.initial(true);
        assertThat(fresh.low()).isNull();
        assertThat(fresh.inBatch()).isFalse();
        assertThat(Position.decode(fresh.encode())).isEqualTo(fresh);

        Position.Snapshot inBatch = new Position.Snapshot("100:105:101,103", "104:110:104", 0, null).after(42, "102");
        assertThat(inBatch.encode()).isEqualTo("pg|100:105:101,103|104:110:104|42|102");
        assertThat(Position.decode(inBatch.encode())).isEqualTo(inBatch);
        assertThat(inBatch.closed()).isEqualTo(new Position.Snapshot("104:110:104", null, 0, null));
        assertThat(inBatch.closed().closed()).isEqualTo(inBatch.closed());
    }

    @Test
    void epochPositionsRoundTrip() {
        Position.Epoch start = (Position.Epoch) Position.initial(false);
        assertThat(start).isEqualTo(new Position.Epoch(0, 0, ""));
        Position.Epoch p = new Position.Epoch(7, 1234, "0a1b2c3d4e5f6071-99");
        assertThat(p.encode()).isEqualTo("epoch|7|1234|0a1b2c3d4e5f6071-99");
        assertThat(Position.decode(p.encode())).isEqualTo(p);
        assertThat(Position.decode(start.encode())).isEqualTo(start);
    }

    @Test
    void garbageIsRefusedNamingTheText() {
        for (String bad : new String[] {"", "pg|1", "epoch|x|1|t", "lsn|0/16B3748"}) {
            assertThatThrownBy(() -> Position.decode(bad)).isInstanceOf(IllegalArgumentException.class)
                    .hasMessageContaining("'" + bad + "'");
        }
    }

    @Test
    void purgeOrderOfEpochsIsTheReadOrder() {
        assertThat(Position.Epoch.compare(new Position.Epoch(1, 9, "b"), new Position.Epoch(2, 1, "a"))).isNegative();
        assertThat(Position.Epoch.compare(new Position.Epoch(2, 1, "b"), new Position.Epoch(2, 1, "a"))).isPositive();
        assertThat(Position.Epoch.compare(new Position.Epoch(2, 3, "a"), new Position.Epoch(2, 3, "a"))).isZero();
    }

    @Test
    void aSnapshotPositionConsumesWhatItsSnapshotsSee() {
        Position.Snapshot copied = new Position.Snapshot("100:105:101,103", null, 0, null);
        Position tx = Position.initial(true);
        assertThat(copied.consumed("99", 1, tx)).isTrue();    // below xmin
        assertThat(copied.consumed("100", 1, tx)).isTrue();   // committed before the snapshot
        assertThat(copied.consumed("101", 1, tx)).isFalse();  // in progress then
        assertThat(copied.consumed("104", 1, tx)).isTrue();
        assertThat(copied.consumed("105", 1, tx)).isFalse();  // at or past xmax
        assertThat(((Position.Snapshot) Position.initial(true)).consumed("1", 1, tx)).isFalse();

        // inside a batch bounded by S2: up to (last position, tx) in the batch's order
        Position.Snapshot inBatch = new Position.Snapshot("100:105:101,103", "104:110:104,108", 0, null).after(42, "103");
        assertThat(inBatch.consumed("101", 41, tx)).isTrue();
        assertThat(inBatch.consumed("103", 42, tx)).isTrue();
        assertThat(inBatch.consumed("106", 42, tx)).isFalse();
        assertThat(inBatch.consumed("105", 43, tx)).isFalse();
        assertThat(inBatch.consumed("108", 1, tx)).isFalse(); // in progress in S2 too
    }

    @Test
    void snapshotPositionsKnowWhenOneIsPastAnother() {
        Position.Snapshot early = new Position.Snapshot("100:105:101,103", null, 0, null);
        Position.Snapshot later = new Position.Snapshot("105:120:", null, 0, null);
        assertThat(later.atOrPast(early)).isTrue();
        assertThat(early.atOrPast(later)).isFalse();
        assertThat(early.atOrPast(Position.initial(true))).isTrue();
        assertThat(((Position.Snapshot) Position.initial(true)).atOrPast(early)).isFalse();
        assertThat(Position.Snapshot.visible(7, "5:9:")).isTrue();
    }

    @Test
    void anEpochPositionConsumesEverythingUpToItInReadOrder() {
        Position.Epoch through = Position.Epoch.through(7);
        assertThat(through.consumed("t", 5, new Position.Epoch(7, 5, "t"))).isTrue();
        assertThat(through.consumed("t", 5, new Position.Epoch(8, 1, "t"))).isFalse();
        Position.Epoch at = new Position.Epoch(7, 10, "b");
        assertThat(at.consumed("a", 10, new Position.Epoch(7, 10, "a"))).isTrue();
        assertThat(at.consumed("c", 10, new Position.Epoch(7, 10, "c"))).isFalse();
        assertThat(Position.Epoch.through(8).atOrPast(at)).isTrue();
        assertThat(at.atOrPast(Position.Epoch.through(8))).isFalse();
    }
}
