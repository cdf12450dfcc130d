package org.topupbatch.command;

import java.util.List;

/** One operator command of the jar ({@code plan}, {@code status}, ...): its arguments in, its exit code out ({@link org.topupbatch.run.ExitCode}). */
@FunctionalInterface
public interface Command {

    int run(List<String> args);
}
