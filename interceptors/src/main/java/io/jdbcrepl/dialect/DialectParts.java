package io.jdbcrepl.dialect;

import java.util.List;

/**
 * The parts of one database that do database I/O (and so live in the driver module), listed by a
 * class of that database's package and registered in {@code META-INF/services/io.jdbcrepl.dialect.DialectParts};
 * {@link Dialect#part(Class)} finds them by package.
 */
public interface DialectParts {

    /** One instance of each part: immutable and shared by every node of this database. */
    List<Object> parts();
}
