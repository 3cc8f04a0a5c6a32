package io.jdbcrepl.node;

/**
 * How a node wakes its peers' apply sides in other processes after its transactions commit
 * captured changes (SPEC 4.6), beside this JVM's {@link io.jdbcrepl.log.CommitSignal}: PostgreSQL sends a
 * notification they listen for; elsewhere there is nothing to listen on and they poll
 * ({@link #NONE}). A part ({@code dialect.part(Notifier.class)}).
 */
@FunctionalInterface
public interface Notifier {

    /** No notifications: peers poll. */
    Notifier NONE = (node, database) -> Sender.NONE;

    /** The notifications of node {@code node}, sent from connections of {@code database}. */
    Sender sender(String node, LocalDatabase database);

    /** One node's notifications: requested after each captured commit; thread-safe. */
    interface Sender {

        Sender NONE = new Sender() {
            @Override
            public void request() {
            }

            @Override
            public void stop() {
            }

            @Override
            public void close(long waitMillis) {
            }
        };

        /** A transaction of the node committed captured changes. */
        void request();

        /** Ends the sender's background work until the next request; never throws. */
        void stop();

        /** Ends the sender's background work for good, waiting up to {@code waitMillis} for it to end. */
        void close(long waitMillis);
    }
}
