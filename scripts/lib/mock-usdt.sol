// SPDX-License-Identifier: MIT
pragma solidity ^0.8.20;

/// Stand-in for Tether's USDT (TetherToken, Solidity 0.4.17) on the local chain, placed at
/// the mainnet address 0xdAC17F958D2ee523a2206206994597C13D831ec7 with anvil_setCode. No
/// constructor ever runs: name, symbol and decimals are constants, and the installer
/// (scripts/lib/token-mocks.ts) writes the owner and the balances straight into the
/// storage slots declared below, so their order is part of the contract.
///
/// Copied from mainnet, as the shop will meet it:
///  - 6 decimals, name "Tether USD", symbol "USDT".
///  - `transfer`, `transferFrom` and `approve` return NOTHING (no bool): a caller that
///    insists on decoding a bool from the return data fails, as it does on mainnet.
///  - `approve` of a non-zero amount over a non-zero allowance reverts (set it to 0 first).
///  - The blocklist: getBlackListStatus(address) and the public isBlackListed mapping,
///    addBlackList/removeBlackList by the owner; a blocked sender's transfer and a blocked
///    `from`'s transferFrom revert. As on mainnet, a blocked address can still RECEIVE.
///  - Reverts carry no reason (mainnet's 0.4 `require`s have none).
/// Left out: the fee (basisPointsRate is 0 on mainnet), pause, deprecation and the
/// upgraded address, issue/redeem (the installer writes balances), destroyBlackFunds,
/// and the short-address check (onlyPayloadSize).
contract MockUSDT {
    // Storage, slot by slot (the installer writes slots 0, 1 and 3).
    address public owner; // slot 0
    mapping(address => uint256) private balances; // slot 1
    mapping(address => mapping(address => uint256)) private allowed; // slot 2
    uint256 private _totalSupply; // slot 3
    mapping(address => bool) public isBlackListed; // slot 4

    event Transfer(address indexed from, address indexed to, uint256 value);
    event Approval(address indexed owner, address indexed spender, uint256 value);
    event AddedBlackList(address _user);
    event RemovedBlackList(address _user);

    modifier onlyOwner() {
        require(msg.sender == owner);
        _;
    }

    function name() external pure returns (string memory) {
        return "Tether USD";
    }

    function symbol() external pure returns (string memory) {
        return "USDT";
    }

    function decimals() external pure returns (uint256) {
        return 6;
    }

    function totalSupply() external view returns (uint256) {
        return _totalSupply;
    }

    function balanceOf(address who) external view returns (uint256) {
        return balances[who];
    }

    function allowance(address holder, address spender) external view returns (uint256) {
        return allowed[holder][spender];
    }

    // No `returns (bool)`: the point of this mock.
    function transfer(address to, uint256 value) external {
        require(!isBlackListed[msg.sender]);
        _transfer(msg.sender, to, value);
    }

    function transferFrom(address from, address to, uint256 value) external {
        require(!isBlackListed[from]);
        require(value <= allowed[from][msg.sender]);
        allowed[from][msg.sender] -= value;
        _transfer(from, to, value);
    }

    function approve(address spender, uint256 value) external {
        require(!((value != 0) && (allowed[msg.sender][spender] != 0)));
        allowed[msg.sender][spender] = value;
        emit Approval(msg.sender, spender, value);
    }

    function getBlackListStatus(address maker) external view returns (bool) {
        return isBlackListed[maker];
    }

    function addBlackList(address evilUser) external onlyOwner {
        isBlackListed[evilUser] = true;
        emit AddedBlackList(evilUser);
    }

    function removeBlackList(address clearedUser) external onlyOwner {
        isBlackListed[clearedUser] = false;
        emit RemovedBlackList(clearedUser);
    }

    function _transfer(address from, address to, uint256 value) private {
        require(value <= balances[from]);
        balances[from] -= value;
        balances[to] += value;
        emit Transfer(from, to, value);
    }
}
