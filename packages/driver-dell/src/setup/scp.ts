const XML_ESCAPES: Readonly<Record<string, string>> = {
  "&": "&amp;",
  "<": "&lt;",
  ">": "&gt;",
  '"': "&quot;",
  "'": "&apos;",
};

function xmlText(value: string): string {
  return value.replace(/[&<>"']/g, (c) => XML_ESCAPES[c] ?? c);
}

/**
 * A Server Configuration Profile that clears the BIOS setup password: the iDRAC's Bios.ChangePassword cannot
 * clear one once set (dell/iDRAC-Redfish-Scripting#308), an SCP import can.
 */
export function clearSetupPasswordProfile(currentPassword: string): string {
  return (
    '<SystemConfiguration><Component FQDD="BIOS.Setup.1-1">' +
    `<Attribute Name="OldSetupPassword">${xmlText(currentPassword)}</Attribute>` +
    '<Attribute Name="NewSetupPassword"></Attribute>' +
    "</Component></SystemConfiguration>"
  );
}
