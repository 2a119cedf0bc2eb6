"""OpenStack sushy exploring a Redfish service, for bench:redfish (see README.md).

Reads with sushy what Racksmith's exploration report holds: the service root; each system with its
Ethernet interfaces (MACs), BIOS attributes, secure boot state and PCIe devices; each manager with its
Ethernet interfaces; each chassis with its network adapters; the firmware inventory. sushy has no objects
for PCIe devices or manager interfaces, so those are read through sushy's own connector. Serially, one
exploration after another, for the given seconds; prints one JSON line with the figures.

usage: python3 sushy_explore.py URL USERNAME PASSWORD SECONDS
"""

import importlib.metadata
import json
import logging
import sys
import time
import warnings

import sushy
from sushy import auth as sushy_auth
from sushy import exceptions as sushy_exceptions


def optional(read):
    """What `read` returns, or None when the BMC lacks that resource (as our report leaves it out)."""
    try:
        return read()
    except (sushy_exceptions.MissingAttributeError, sushy_exceptions.ResourceNotFoundError,
            sushy_exceptions.HTTPError):
        return None


def linked_members(conn, path):
    """Every member resource of a collection at `path`, read with sushy's connector."""
    if not path:
        return []
    collection = conn.get(path).json()
    return [conn.get(member["@odata.id"]).json() for member in collection.get("Members") or []]


def explore(url, username, password):
    root = sushy.Sushy(url, auth=sushy_auth.BasicAuth(username, password), verify=False)
    conn = root._conn  # sushy's requests session, for the resources sushy has no class for
    report = {"systems": [], "managers": [], "chassis": [], "firmware": []}
    for system in root.get_system_collection().get_members():
        nics = optional(lambda: system.ethernet_interfaces.get_members()) or []
        bios = optional(lambda: system.bios.attributes)
        secure_boot = optional(lambda: system.secure_boot.enabled)
        pcie = system.json.get("PCIeDevices")
        links = pcie if isinstance(pcie, list) else []
        devices = [conn.get(link["@odata.id"]).json() for link in links]
        if isinstance(pcie, dict):
            devices = linked_members(conn, pcie.get("@odata.id"))
        report["systems"].append({
            "id": system.identity, "serial": system.serial_number, "uuid": system.uuid,
            "power": str(system.power_state), "bios_version": system.bios_version,
            "macs": [nic.mac_address for nic in nics], "bios_attributes": len(bios or {}),
            "secure_boot": secure_boot, "pcie_devices": len(devices),
        })
    for manager in root.get_manager_collection().get_members():
        nics = linked_members(conn, (manager.json.get("EthernetInterfaces") or {}).get("@odata.id"))
        report["managers"].append({
            "id": manager.identity, "firmware": manager.firmware_version,
            "macs": [nic.get("MACAddress") for nic in nics],
        })
    for chassis in root.get_chassis_collection().get_members():
        adapters = optional(lambda: chassis.network_adapters.get_members()) or []
        report["chassis"].append({
            "id": chassis.identity, "serial": chassis.serial_number,
            "adapters": [adapter.identity for adapter in adapters],
        })
    inventory = optional(lambda: root.get_update_service().firmware_inventory.get_members()) or []
    report["firmware"] = [(item.identity, item.version) for item in inventory]
    return report


def main():
    url, username, password, seconds = sys.argv[1], sys.argv[2], sys.argv[3], float(sys.argv[4])
    logging.disable(logging.CRITICAL)
    warnings.simplefilter("ignore")
    cpu = time.process_time()
    started = time.monotonic()
    explorations = 0
    last = None
    while time.monotonic() - started < seconds:
        last = explore(url, username, password)
        explorations += 1
    print(json.dumps({
        "explorations": explorations,
        "seconds": time.monotonic() - started,
        "cpuMs": (time.process_time() - cpu) * 1000,
        "sushy": importlib.metadata.version("sushy"),
        "systems": len(last["systems"]) if last else 0,
        "macs": sum(len(s["macs"]) for s in last["systems"] + last["managers"]) if last else 0,
        "firmware": len(last["firmware"]) if last else 0,
    }))


if __name__ == "__main__":
    main()
