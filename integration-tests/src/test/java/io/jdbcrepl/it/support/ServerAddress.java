package io.jdbcrepl.it.support;

/**
 * Where a database server is and how to log in as a user that may create and drop databases.
 * {@code origin} says where the address came from, for messages.
 */
public record ServerAddress(String host, int port, String user, String password, String origin) {

    @Override
    public String toString() {
        return user + "@" + host + ":" + port + " (" + origin + ")";
    }
}
