#!/usr/bin/env bash
# A three-node MariaDB Galera cluster and HAProxy in front of it, on loopback, for testing
# Tessera on a multi-primary cluster (npm run test:cluster). Nothing is installed: it needs
# mariadb-server, galera-4, rsync and haproxy (Debian), and root (the nodes run as `mysql`).
#
#   scripts/cluster/cluster.sh start    # bootstrap node 1, join 2 and 3, start HAProxy; prints the URLs
#   scripts/cluster/cluster.sh status   # wsrep state of each node, HAProxy's pid
#   scripts/cluster/cluster.sh kill N   # kill -9 node N (1-3): a crash, for the failover test
#   scripts/cluster/cluster.sh stop     # stops what start started, by pid file, and removes the folder
#
# Everything lives in $CLUSTER_DIR (default /tmp/tessera-galera): node<N>/data, node<N>.cnf,
# node<N>.log, haproxy.cfg, haproxy.pid. Processes are stopped by their pid files only: other
# MariaDB servers on the machine (the system one on 3306) are never touched.
#
# Ports (CLUSTER_PORT_OFFSET shifts them all): client 3411-3413, gcomm 4561-4563, IST
# 4571-4573, SST (rsync) 4581-4583, HAProxy 3410. Clients connect as tessera/tessera (all
# privileges, from 127.0.0.1 only); HAProxy's check connects as haproxy_check (no password,
# no privileges) and sends a server to "down" unless wsrep_local_state is 4 (Synced).
set -euo pipefail

DIR=${CLUSTER_DIR:-/tmp/tessera-galera}
OFF=${CLUSTER_PORT_OFFSET:-0}
NAME=${CLUSTER_NAME:-tessera_galera}
PROVIDER=${GALERA_PROVIDER:-/usr/lib/galera/libgalera_smm.so}
HAPROXY_PORT=$((3410 + OFF))
client_port() { echo $((3410 + OFF + $1)); }
gcomm_port() { echo $((4560 + OFF + $1)); }
ist_port() { echo $((4570 + OFF + $1)); }
sst_port() { echo $((4580 + OFF + $1)); }

say() { echo "cluster: $*"; }
die() { echo "cluster: $*" >&2; exit 1; }

missing_tools() {
  local missing=()
  command -v mariadbd >/dev/null 2>&1 || [ -x /usr/sbin/mariadbd ] || missing+=(mariadb-server)
  command -v mariadb-install-db >/dev/null 2>&1 || missing+=(mariadb-server)
  [ -f "$PROVIDER" ] || missing+=(galera-4)
  command -v rsync >/dev/null 2>&1 || missing+=(rsync)
  command -v haproxy >/dev/null 2>&1 || [ -x /usr/sbin/haproxy ] || missing+=(haproxy)
  id mysql >/dev/null 2>&1 || missing+=("a mysql user (mariadb-server)")
  echo "${missing[*]:-}"
}

mariadbd_bin() { command -v mariadbd 2>/dev/null || echo /usr/sbin/mariadbd; }
haproxy_bin() { command -v haproxy 2>/dev/null || echo /usr/sbin/haproxy; }

sql() { # node, statement: as root through the node's socket (unix_socket authentication)
  mariadb --no-defaults --socket="$DIR/node$1/mysqld.sock" -uroot -N -B -e "$2"
}

status_var() { # node, variable
  sql "$1" "SHOW GLOBAL STATUS LIKE '$2'" 2>/dev/null | awk '{print $2}'
}

alive() { # pid file
  [ -s "$1" ] && kill -0 "$(cat "$1")" 2>/dev/null
}

write_node_config() { # node, cluster address
  local n=$1
  cat >"$DIR/node$n.cnf" <<CNF
[mariadbd]
datadir=$DIR/node$n/data
socket=$DIR/node$n/mysqld.sock
pid-file=$DIR/node$n/mysqld.pid
log-error=$DIR/node$n.log
bind-address=127.0.0.1
port=$(client_port "$n")
skip-name-resolve
# what Galera requires
binlog_format=ROW
default_storage_engine=InnoDB
innodb_autoinc_lock_mode=2
# small: three of these share a test machine
innodb_buffer_pool_size=64M
innodb_log_file_size=48M
performance_schema=OFF
max_connections=200
wsrep_on=ON
wsrep_provider=$PROVIDER
wsrep_cluster_name=$NAME
wsrep_cluster_address=$2
wsrep_node_name=node$n
wsrep_node_address=127.0.0.1:$(gcomm_port "$n")
wsrep_provider_options=gmcast.listen_addr=tcp://127.0.0.1:$(gcomm_port "$n");ist.recv_addr=127.0.0.1:$(ist_port "$n");gcache.size=64M
wsrep_sst_method=rsync
wsrep_sst_receive_address=127.0.0.1:$(sst_port "$n")
wsrep_slave_threads=2
# reads wait until the node has applied what the cluster committed before them: a row written
# through one node is seen through any other right after (read-your-writes across instances)
wsrep_sync_wait=1
CNF
}

start_node() { # node, extra options...
  local n=$1; shift
  mkdir -p "$DIR/node$n/data"
  chown -R mysql:mysql "$DIR/node$n"
  if [ ! -d "$DIR/node$n/data/mysql" ] && [ "$n" = 1 ]; then
    mariadb-install-db --no-defaults --user=mysql --datadir="$DIR/node$n/data" --auth-root-authentication-method=socket \
      --skip-test-db >"$DIR/node$n.install.log" 2>&1 || die "mariadb-install-db failed for node $n: see $DIR/node$n.install.log"
  fi
  # Nodes 2 and 3 start empty and receive node 1's data by state transfer (rsync).
  nohup "$(mariadbd_bin)" --defaults-file="$DIR/node$n.cnf" --user=mysql "$@" >>"$DIR/node$n.log" 2>&1 &
  echo $! >"$DIR/node$n.launcher.pid"
}

wait_synced() { # node, seconds
  local n=$1 limit=$2 i state ready
  for ((i = 0; i < limit * 2; i++)); do
    state=$(status_var "$n" wsrep_local_state || true)
    ready=$(status_var "$n" wsrep_ready || true)
    if [ "$state" = 4 ] && [ "$ready" = ON ]; then return 0; fi
    if ! alive "$DIR/node$n.launcher.pid"; then die "node $n exited while starting: see $DIR/node$n.log"; fi
    sleep 0.5
  done
  die "node $n was not synced after ${limit}s: see $DIR/node$n.log"
}

write_haproxy_config() {
  cat >"$DIR/wsrep-check.sh" <<'CHK'
#!/bin/sh
# HAProxy external check: a node serves only when Galera says it is Synced (wsrep_local_state 4).
# HAProxy passes the server's address and port as $3 and $4.
state=$(mariadb --no-defaults --connect-timeout=2 -h "$3" -P "$4" -uhaproxy_check -N -B \
  -e "SHOW GLOBAL STATUS LIKE 'wsrep_local_state'" 2>/dev/null | awk '{print $2}')
[ "$state" = 4 ]
CHK
  chmod 755 "$DIR/wsrep-check.sh"
  cat >"$DIR/haproxy.cfg" <<CFG
global
  pidfile $DIR/haproxy.pid
  external-check
  insecure-fork-wanted
  maxconn 1000

defaults
  mode tcp
  timeout connect 2s
  timeout client 1h
  timeout server 1h
  # a killed node's connections are closed at once rather than left to time out
  option redispatch
  retries 2

listen galera
  bind 127.0.0.1:$HAPROXY_PORT
  balance leastconn
  option external-check
  external-check path "/usr/bin:/bin"
  external-check command $DIR/wsrep-check.sh
  default-server inter 1s fall 2 rise 2 on-marked-down shutdown-sessions
  server node1 127.0.0.1:$(client_port 1) check
  server node2 127.0.0.1:$(client_port 2) check
  server node3 127.0.0.1:$(client_port 3) check
CFG
}

start() {
  local missing
  missing=$(missing_tools)
  if [ -n "$missing" ]; then die "not installed: $missing (Debian: apt-get install mariadb-server galera-4 rsync haproxy)"; fi
  [ "$(id -u)" -eq 0 ] || die "run as root: the nodes run as the mysql user, with data directories it owns"
  if alive "$DIR/node1.launcher.pid" || alive "$DIR/haproxy.pid"; then die "already running in $DIR (cluster.sh stop first)"; fi
  rm -rf "$DIR"
  mkdir -p "$DIR"
  chmod 755 "$DIR"
  local t0=$SECONDS
  write_node_config 1 "gcomm://"
  start_node 1 --wsrep-new-cluster
  wait_synced 1 60
  sql 1 "CREATE USER 'tessera'@'127.0.0.1' IDENTIFIED BY 'tessera'; GRANT ALL ON *.* TO 'tessera'@'127.0.0.1' WITH GRANT OPTION;
         CREATE USER 'haproxy_check'@'127.0.0.1'; CREATE DATABASE tessera;"
  for n in 2 3; do
    write_node_config "$n" "gcomm://127.0.0.1:$(gcomm_port 1)"
    start_node "$n"
    wait_synced "$n" 120
  done
  local size
  size=$(status_var 1 wsrep_cluster_size)
  [ "$size" = 3 ] || die "wsrep_cluster_size is $size, not 3"
  write_haproxy_config
  "$(haproxy_bin)" -q -D -f "$DIR/haproxy.cfg" || die "haproxy did not start (config: $DIR/haproxy.cfg)"
  # wait until HAProxy has seen a node as up (rise 2 at 1s)
  local i
  for ((i = 0; i < 40; i++)); do
    if mariadb --no-defaults --connect-timeout=2 -h 127.0.0.1 -P "$HAPROXY_PORT" -utessera -ptessera -N -B -e 'SELECT 1' >/dev/null 2>&1; then break; fi
    sleep 0.5
  done
  say "3 nodes synced, wsrep_cluster_size=3, HAProxy up, in $((SECONDS - t0))s ($DIR)"
  for n in 1 2 3; do say "node $n: mysql://tessera:tessera@127.0.0.1:$(client_port "$n")/tessera"; done
  say "haproxy: mysql://tessera:tessera@127.0.0.1:$HAPROXY_PORT/tessera"
}

stop_pid_file() { # pid file, name
  local file=$1 pid i
  [ -s "$file" ] || return 0
  pid=$(cat "$file")
  if kill -0 "$pid" 2>/dev/null; then
    kill -TERM "$pid" 2>/dev/null || true
    for ((i = 0; i < 60; i++)); do kill -0 "$pid" 2>/dev/null || break; sleep 0.5; done
    if kill -0 "$pid" 2>/dev/null; then kill -KILL "$pid" 2>/dev/null || true; say "$2 killed (did not stop in 30s)"; fi
  fi
}

stop() {
  [ -d "$DIR" ] || { say "nothing to stop ($DIR does not exist)"; return 0; }
  stop_pid_file "$DIR/haproxy.pid" haproxy
  for n in 3 2 1; do stop_pid_file "$DIR/node$n.launcher.pid" "node $n"; done
  rm -rf "$DIR"
  say "stopped; $DIR removed"
}

kill_node() { # node
  local n=$1
  alive "$DIR/node$n.launcher.pid" || die "node $n is not running"
  kill -KILL "$(cat "$DIR/node$n.launcher.pid")"
  say "node $n killed (SIGKILL)"
}

status() {
  local n
  for n in 1 2 3; do
    if alive "$DIR/node$n.launcher.pid"; then
      say "node $n: pid $(cat "$DIR/node$n.launcher.pid"), port $(client_port "$n"), state $(status_var "$n" wsrep_local_state_comment), ready $(status_var "$n" wsrep_ready), cluster size $(status_var "$n" wsrep_cluster_size)"
    else
      say "node $n: not running"
    fi
  done
  if alive "$DIR/haproxy.pid"; then say "haproxy: pid $(cat "$DIR/haproxy.pid"), port $HAPROXY_PORT"; else say "haproxy: not running"; fi
}

case "${1:-}" in
  start) start ;;
  stop) stop ;;
  status) status ;;
  kill) kill_node "${2:?node number}" ;;
  check) m=$(missing_tools); if [ -n "$m" ]; then echo "missing: $m"; exit 1; fi; echo "all present" ;;
  *) die "usage: $0 start|stop|status|kill <node>|check" ;;
esac
