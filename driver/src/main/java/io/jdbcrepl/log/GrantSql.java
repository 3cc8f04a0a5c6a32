package io.jdbcrepl.log;

import java.util.List;
import java.util.Optional;

/**
 * The least privileges on one database ({@code dialect.part(GrantSql.class)}): how users are named
 * and created, and the grants beyond those every database needs (none unless said: the change
 * log's epoch tables, the schema and sequence grants of PostgreSQL). {@link Grants} writes the statements in order.
 */
public interface GrantSql {

    /** The note printed instead of any statement when there is nobody to grant to (H2: one user owns everything). */
    default Optional<String> nothingToGrant() {
        return Optional.empty();
    }

    /** The database and the application's schema, as the first comment names them. */
    String target(String database, String appSchema);

    /** A user as GRANT names it. */
    String role(Grants grants, String user);

    /** The statement that creates {@code role} (printed as a comment). */
    String createUser(String role);

    /** What a user needs before its grants on tables (PostgreSQL: CONNECT and USAGE on the schema). */
    default List<String> connect(Grants grants, String role) {
        return List.of();
    }

    /** How the application's transactions reach the log beyond writing repl_log, to finish the application user's comment. */
    default String applicationNote() {
        return "";
    }

    /** The application user's grants after those on repl_log. */
    default List<String> application(Grants grants, String role) {
        return List.of();
    }

    /** The apply user's grants after those on repl_log. */
    default List<String> apply(Grants grants, String role) {
        return List.of();
    }

    /** What the peer-reading user does beyond reading, to finish its comment. */
    default String readerNote() {
        return "";
    }

    /** The peer-reading user's grants after SELECT on repl_log. */
    default List<String> reader(Grants grants, String role) {
        return List.of();
    }
}
