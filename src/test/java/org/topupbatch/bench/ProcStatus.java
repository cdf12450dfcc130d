package org.topupbatch.bench;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

/** Figures Linux keeps about a process under /proc. */
final class ProcStatus {

    private ProcStatus() {
    }

    /** Peak resident set size (VmHWM) in KiB, or -1 when /proc does not say. */
    static long peakResidentKb(long pid) {
        try {
            for (String line : Files.readAllLines(Path.of("/proc/" + pid + "/status"))) {
                if (line.startsWith("VmHWM:")) {
                    return Long.parseLong(line.replaceAll("[^0-9]", ""));
                }
            }
        } catch (IOException | RuntimeException e) {
            return -1;
        }
        return -1;
    }

    /** User plus system CPU time in seconds (utime + stime of /proc/pid/stat), or -1. */
    static double cpuSeconds(long pid) {
        try {
            String stat = Files.readString(Path.of("/proc/" + pid + "/stat"));
            String[] f = stat.substring(stat.lastIndexOf(')') + 2).split(" ");
            // after "pid (comm) ": state is field 3, utime field 14, stime field 15
            return (Long.parseLong(f[11]) + Long.parseLong(f[12])) / 100.0;
        } catch (IOException | RuntimeException e) {
            return -1;
        }
    }
}
