//! The world's wiring, planned from a scenario before it runs: nodes, one-way
//! links, each router's forwarding processor, and static shortest-path
//! routes. The single-path form is the two-node case of the same plan.

use std::collections::VecDeque;

use crate::channel::orbit::Propagation;
use crate::channel::ChannelConfig;
use crate::engine::LinkId;
use crate::packet::NodeId;
use crate::red::RedConfig;
use crate::scenario::{NodeKind, PathSpec, QueueLimit, Scenario};

pub struct LinkPlan {
    pub name: String,
    pub from: NodeId,
    pub to: NodeId,
    pub rate_bps: u64,
    pub propagation: Propagation,
    pub channel: ChannelConfig,
    pub limit: QueueLimit,
    pub header: u32,
    pub drop_list: Vec<u64>,
    pub red: Option<RedConfig>,
}

pub struct Topology {
    pub node_names: Vec<String>,
    pub links: Vec<LinkPlan>,
    /// `routes[node][destination]`: the link a node sends a packet on.
    pub routes: Vec<Vec<LinkId>>,
    /// A router's forwarding processor: a zero-delay link back to itself
    /// that every packet it forwards crosses first.
    pub processors: Vec<Option<LinkId>>,
    /// (sender, receiver) of each flow, then of each traffic source.
    pub flow_ends: Vec<(NodeId, NodeId)>,
    pub traffic_ends: Vec<(NodeId, NodeId)>,
}

/// Packets a router's forwarding processor holds when the scenario does not say.
const FORWARDING_QUEUE: QueueLimit = QueueLimit::Packets(1000);

impl Topology {
    pub fn plan(scenario: &Scenario) -> Topology {
        let names = crate::scenario::node_names(scenario);
        let node = |name: &str| names.iter().position(|n| n == name).expect("names validated") as NodeId;
        let mut links = Vec::new();
        let path_links: Vec<(&PathSpec, NodeId, NodeId, String, String)> = match &scenario.path {
            Some(path) => vec![(path, 0, 1, "forward".into(), "return".into())],
            None => scenario
                .links
                .iter()
                .map(|l| {
                    let (a, b) = (l.from.as_deref().unwrap_or_default(), l.to.as_deref().unwrap_or_default());
                    (l, node(a), node(b), format!("{a}->{b}"), format!("{b}->{a}"))
                })
                .collect(),
        };
        for (spec, a, b, forward, back) in path_links {
            let propagation = spec.propagation();
            let red = spec.red().expect("red validated");
            links.push(LinkPlan {
                name: forward,
                from: a,
                to: b,
                rate_bps: spec.forward_rate(),
                propagation: propagation.clone(),
                channel: spec.forward_channel(),
                limit: spec.queue,
                header: spec.link_header.0 as u32,
                drop_list: sorted(&spec.drop_packets),
                red,
            });
            links.push(LinkPlan {
                name: back,
                from: b,
                to: a,
                rate_bps: spec.return_rate(),
                propagation,
                channel: spec.return_channel(),
                limit: spec.return_queue.unwrap_or(spec.queue),
                header: spec.link_header.0 as u32,
                drop_list: Vec::new(),
                red,
            });
        }
        let routes = shortest_path_routes(names.len(), &links);
        let mut processors = vec![None; names.len()];
        for spec in scenario.nodes.iter().filter(|n| n.kind == NodeKind::Router) {
            if let Some(rate) = spec.forwarding_rate {
                let n = node(&spec.name);
                processors[n as usize] = Some(links.len() as LinkId);
                links.push(LinkPlan {
                    name: format!("{} forwarding", spec.name),
                    from: n,
                    to: n,
                    rate_bps: rate.0,
                    propagation: Propagation::Constant(0),
                    channel: ChannelConfig::Clean,
                    limit: spec.forwarding_queue.unwrap_or(FORWARDING_QUEUE),
                    header: 0,
                    drop_list: Vec::new(),
                    red: None,
                });
            }
        }
        let ends = |from: Option<&str>, to: Option<&str>| match scenario.path {
            Some(_) => (node(from.unwrap_or("sender")), node(to.unwrap_or("receiver"))),
            None => (node(from.expect("validated")), node(to.expect("validated"))),
        };
        let flow_ends = scenario.flows.iter().map(|f| ends(f.from.as_deref(), f.to.as_deref())).collect();
        let traffic_ends = scenario.traffic.iter().map(|t| ends(Some(&t.from), Some(&t.to))).collect();
        Topology { node_names: names, links, routes, processors, flow_ends, traffic_ends }
    }
}

/// Static routes by hop count: a breadth-first search back from each
/// destination; among equal paths the earlier-listed link wins, so the
/// routes are a pure function of the scenario.
fn shortest_path_routes(nodes: usize, links: &[LinkPlan]) -> Vec<Vec<LinkId>> {
    let mut routes = vec![vec![LinkId::MAX; nodes]; nodes];
    for dst in 0..nodes {
        let mut seen = vec![false; nodes];
        seen[dst] = true;
        let mut queue = VecDeque::from([dst]);
        while let Some(n) = queue.pop_front() {
            for (id, link) in links.iter().enumerate() {
                let from = link.from as usize;
                if link.to as usize == n && !seen[from] {
                    seen[from] = true;
                    routes[from][dst] = id as LinkId;
                    queue.push_back(from);
                }
            }
        }
    }
    routes
}

fn sorted(list: &[u64]) -> Vec<u64> {
    let mut list = list.to_vec();
    list.sort_unstable();
    list.dedup();
    list
}

#[cfg(test)]
mod tests {
    use super::*;

    fn plan(toml: &str) -> Topology {
        Topology::plan(&Scenario::from_toml(toml).unwrap_or_else(|e| panic!("{e}")))
    }

    #[test]
    fn single_path_is_two_nodes_and_two_links() {
        let t = plan("[path]\nrate = \"1Mbps\"\ndelay = \"10ms\"\n[[flow]]\n");
        assert_eq!(t.node_names, ["sender", "receiver"]);
        assert_eq!((t.links[0].name.as_str(), t.links[1].name.as_str()), ("forward", "return"));
        assert_eq!(t.routes, vec![vec![LinkId::MAX, 0], vec![1, LinkId::MAX]]);
        assert_eq!(t.flow_ends, vec![(0, 1)]);
    }

    #[test]
    fn routes_follow_the_fewest_hops() {
        // a - r1 - b, and a longer a - r2 - r3 - b.
        let t = plan(
            r#"
            [[node]]
            name = "a"
            [[node]]
            name = "b"
            [[node]]
            name = "r1"
            kind = "router"
            [[node]]
            name = "r2"
            kind = "router"
            forwarding_rate = "1.544Mbps"
            [[node]]
            name = "r3"
            kind = "router"
            [[link]]
            from = "a"
            to = "r2"
            rate = "1Mbps"
            delay = "1ms"
            [[link]]
            from = "r2"
            to = "r3"
            rate = "1Mbps"
            delay = "1ms"
            [[link]]
            from = "r3"
            to = "b"
            rate = "1Mbps"
            delay = "1ms"
            [[link]]
            from = "a"
            to = "r1"
            rate = "1Mbps"
            delay = "1ms"
            [[link]]
            from = "r1"
            to = "b"
            rate = "1Mbps"
            delay = "1ms"
            [[flow]]
            from = "a"
            to = "b"
            "#,
        );
        let a_to_b = t.routes[0][1] as usize;
        assert_eq!(t.links[a_to_b].name, "a->r1");
        let b_to_a = t.routes[1][0] as usize;
        assert_eq!(t.links[b_to_a].name, "b->r1");
        assert_eq!(t.links[t.routes[2][1] as usize].name, "r1->b");
        let processor = t.processors[3].expect("r2 has a forwarding rate") as usize;
        assert_eq!((t.links[processor].rate_bps, t.links[processor].to), (1_544_000, 3));
        assert!(t.processors[2].is_none());
    }
}
