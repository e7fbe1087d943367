package bench;

import com.google.common.util.concurrent.ListeningExecutorService;
import com.google.common.util.concurrent.MoreExecutors;

public class Pool {
  public ListeningExecutorService inline() {
    return MoreExecutors.sameThreadExecutor();
  }
}
