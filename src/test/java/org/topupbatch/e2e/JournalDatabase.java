package org.topupbatch.e2e;

/** The two journal databases the end-to-end flows run on. */
enum JournalDatabase {
    /** The default: an embedded H2 file under the run's data folder. */
    H2,
    /** A fresh database on the test class's embedded PostgreSQL server. */
    POSTGRESQL
}
